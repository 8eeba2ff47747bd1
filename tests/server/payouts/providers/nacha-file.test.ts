import { describe, expect, it } from 'vitest'
import { achName } from '../../../../server/payouts/providers/ach-name.ts'
import { buildNachaFile, NACHA_BATCH_ENTRIES } from '../../../../server/payouts/providers/nacha-file.ts'
import type { NachaCredit, NachaOriginator } from '../../../../server/payouts/providers/nacha-problems.ts'
import { isRoutingNumber } from '../../../../server/payouts/providers/routing-number.ts'
import { parseNacha } from '../../support/parse-nacha.ts'

// real routing numbers, each passing the ABA checksum
const FIRM_BANK = '121000358'
const CLAIMANT_BANKS = ['021000021', '011000015', '322271627', '026009593']
const EIN_COMPANY_ID = '1954321876'

const ORIGINATOR: NachaOriginator = {
  immediateDestination: FIRM_BANK,
  immediateDestinationName: 'Bank of America',
  immediateOrigin: EIN_COMPANY_ID,
  immediateOriginName: 'Cash Advance Claims Law',
  companyName: 'Cash Advance Claims Law Group',
  companyIdentification: EIN_COMPANY_ID,
  originatingDfi: FIRM_BANK,
}

function makeCredit(index: number, overrides: Partial<NachaCredit> = {}): NachaCredit {
  return {
    reference: `item-${index}`,
    name: `Claimant Number ${index}`,
    routingNumber: CLAIMANT_BANKS[index % CLAIMANT_BANKS.length]!,
    accountNumber: `${100000 + index}`,
    accountType: 'checking',
    amountCents: 10_000 + index,
    ...overrides,
  }
}

function build(credits: NachaCredit[], overrides: Partial<Parameters<typeof buildNachaFile>[0]> = {}) {
  return buildNachaFile({
    originator: ORIGINATOR,
    credits,
    entryDescription: 'Settlement',
    effectiveDate: '2026-03-16',
    // 17:05 in Los Angeles on 13 March
    createdAt: new Date('2026-03-14T00:05:00Z'),
    timeZone: 'America/Los_Angeles',
    ...overrides,
  })
}

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => expect.fail('the file should not have been made'),
    (error: Error) => error.message,
  )
}

describe('buildNachaFile', () => {
  it('writes 94-character records, padded with 9s to whole blocks of 10', async () => {
    const { text } = await build([makeCredit(1), makeCredit(2), makeCredit(3)])
    const file = parseNacha(text)
    // header, batch header, 3 entries, batch control, file control: 7, and 3 of padding
    expect(file.lines).toHaveLength(10)
    expect(file.padding).toBe(3)
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.split('\r\n').slice(0, -1)).toEqual(file.lines)
  })

  it("writes the file header for the firm's bank, dated in the firm's zone", async () => {
    const { header } = parseNacha((await build([makeCredit(1)])).text)
    expect(header).toEqual({
      recordType: '1',
      priorityCode: '01',
      immediateDestination: ` ${FIRM_BANK}`,
      immediateOrigin: EIN_COMPANY_ID,
      creationDate: '260313',
      creationTime: '1705',
      fileIdModifier: 'A',
      recordSize: '094',
      blockingFactor: '10',
      formatCode: '1',
      immediateDestinationName: 'BANK OF AMERICA        ',
      immediateOriginName: 'CASH ADVANCE CLAIMS LAW',
      referenceCode: 'PAYOUTS ',
    })
  })

  it('writes one PPD credit batch from the firm, effective on the day given', async () => {
    const { batches } = parseNacha((await build([makeCredit(1)])).text)
    expect(batches).toHaveLength(1)
    expect(batches[0]!.header).toEqual({
      recordType: '5',
      serviceClassCode: '220',
      companyName: 'CASH ADVANCE CLA',
      companyDiscretionaryData: ' '.repeat(20),
      companyIdentification: EIN_COMPANY_ID,
      standardEntryClassCode: 'PPD',
      companyEntryDescription: 'SETTLEMENT',
      companyDescriptiveDate: 'MAR 16',
      effectiveEntryDate: '260316',
      settlementDate: '   ',
      originatorStatusCode: '1',
      originatingDfi: FIRM_BANK.slice(0, 8),
      batchNumber: '0000001',
    })
  })

  it('writes each credit: 22 to checking, 32 to savings, amount in cents, name in capitals, trace numbers in order', async () => {
    const result = await build([
      makeCredit(1, { amountCents: 123_456, name: "José O'Brien-Núñez", accountNumber: '1234-5678 9' }),
      makeCredit(2, { amountCents: 5, accountType: 'savings', name: 'Maximilian Alexander Worthington III' }),
    ])
    const [first, second] = parseNacha(result.text).batches[0]!.entries
    expect(first).toEqual({
      recordType: '6',
      transactionCode: '22',
      receivingDfi: '01100001',
      checkDigit: '5',
      dfiAccountNumber: '123456789        ',
      amount: '0000123456',
      individualIdNumber: 'item-1         ',
      individualName: 'JOSE OBRIEN-NUNEZ     ',
      discretionaryData: '  ',
      addendaRecordIndicator: '0',
      traceNumber: '121000350000001',
    })
    expect(second).toMatchObject({
      transactionCode: '32',
      receivingDfi: '32227162',
      checkDigit: '7',
      amount: '0000000005',
      individualName: 'MAXIMILIAN ALEXANDER W',
      traceNumber: '121000350000002',
    })
    expect(result.entries).toEqual([
      { reference: 'item-1', traceNumber: '121000350000001' },
      { reference: 'item-2', traceNumber: '121000350000002' },
    ])
  })

  it('adds up each batch of 500 and the file: counts, credit totals and entry hashes cut to 10 digits', async () => {
    expect(NACHA_BATCH_ENTRIES).toBe(500)
    // 1,201 entries from a bank whose 8-digit ids add up past 10 digits: batches of 500, 500 and 201
    const credits = Array.from({ length: 1201 }, (_, index) =>
      makeCredit(index, { routingNumber: '322271627', amountCents: index + 1 }),
    )
    const result = await build(credits)
    const file = parseNacha(result.text)
    const cents = (from: number, to: number) => ((to - from + 1) * (from + to)) / 2
    expect(result).toMatchObject({ entryCount: 1201, batchCount: 3, totalCreditCents: cents(1, 1201) })
    expect(file.batches.map((batch) => [batch.header.batchNumber, batch.entries.length])).toEqual([
      ['0000001', 500],
      ['0000002', 500],
      ['0000003', 201],
    ])
    const hash = (count: number) => String(count * 32227162).slice(-10)
    expect([hash(500), hash(201), hash(1201)]).toEqual(['6113581000', '6477659562', '8704821562'])
    expect(file.batches.map((batch) => batch.control)).toEqual(
      [
        { count: 500, hash: hash(500), total: cents(1, 500), number: '0000001' },
        { count: 500, hash: hash(500), total: cents(501, 1000), number: '0000002' },
        { count: 201, hash: hash(201), total: cents(1001, 1201), number: '0000003' },
      ].map(({ count, hash: entryHash, total, number }) => ({
        recordType: '8',
        serviceClassCode: '220',
        entryAddendaCount: String(count).padStart(6, '0'),
        entryHash,
        totalDebit: '000000000000',
        totalCredit: String(total).padStart(12, '0'),
        companyIdentification: EIN_COMPANY_ID,
        messageAuthenticationCode: ' '.repeat(19),
        reserved: ' '.repeat(6),
        originatingDfi: '12100035',
        batchNumber: number,
      })),
    )
    // 1 + 3 × 2 + 1,201 + 1 = 1,209 records: 121 blocks
    expect(file.control).toEqual({
      recordType: '9',
      batchCount: '000003',
      blockCount: '000121',
      entryAddendaCount: '00001201',
      entryHash: hash(1201),
      totalDebit: '000000000000',
      totalCredit: String(cents(1, 1201)).padStart(12, '0'),
      reserved: ' '.repeat(39),
    })
    expect(file.lines).toHaveLength(1210)
    const traceNumbers = file.batches.flatMap((batch) => batch.entries.map((entry) => entry.traceNumber))
    expect(traceNumbers.at(-1)).toBe('121000350001201')
    expect(new Set(traceNumbers).size).toBe(1201)
  })

  it('keeps every cent of amounts whose dollars a float cannot hold exactly', async () => {
    const amounts = [10, 20, 30, 1, 2, 999_999_999, 33_33, 999_999_999]
    const { text } = await build(amounts.map((amountCents, index) => makeCredit(index, { amountCents })))
    const file = parseNacha(text)
    expect(file.batches[0]!.entries.map((entry) => Number(entry.amount))).toEqual(amounts)
    expect(file.control.totalCredit).toBe(String(amounts.reduce((a, b) => a + b, 0)).padStart(12, '0'))
  })

  it('names every entry whose routing number fails the ABA checksum, showing its last four digits only', async () => {
    expect(isRoutingNumber('021000022')).toBe(false)
    const message = await failure(
      build([
        makeCredit(1, { routingNumber: '021000022' }),
        makeCredit(2),
        makeCredit(3, { routingNumber: '12100035' }),
        makeCredit(4, { routingNumber: '000000000' }),
      ]),
    )
    expect(message).toBe(
      'the ACH file cannot be made: entry "item-1": the routing number *****0022 fails the ABA checksum; ' +
        'entry "item-3": the routing number ****0035 fails the ABA checksum; ' +
        'entry "item-4": the routing number *****0000 fails the ABA checksum',
    )
  })

  it('lists every other problem at once, never showing a bank or taxpayer number whole', async () => {
    const message = await failure(
      build(
        [
          makeCredit(1, { accountNumber: '123456789012345678' }),
          makeCredit(2, { amountCents: 10.5 }),
          makeCredit(3, { amountCents: 1_000_000_000 }),
          makeCredit(4, { name: '李小龙' }),
          makeCredit(5, { reference: 'item-1' }),
        ],
        {
          originator: { ...ORIGINATOR, companyIdentification: '954321876', originatingDfi: '121000359' },
          effectiveDate: '2026-02-30',
        },
      ),
    )
    expect(message).toBe(
      'the ACH file cannot be made: the originating DFI *****0359 is not a valid routing number; ' +
        'the company identification *****1876 must be 10 digits; ' +
        'the effective date "2026-02-30" must be a date as YYYY-MM-DD; ' +
        'entry "item-1": the account number *****5678 must be 4 to 17 digits; ' +
        'entry "item-2": the amount must be a whole number of cents from 1 to 999999999; ' +
        'entry "item-3": the amount must be a whole number of cents from 1 to 999999999; ' +
        'entry "item-4": the name has no character an ACH file can carry; ' +
        'entry "item-1": the reference appears twice',
    )
    for (const secret of ['123456789012345678', '954321876', '121000359'])
      expect(message).not.toContain(secret)
  })
})

describe('isRoutingNumber', () => {
  it('takes nine digits whose 3-7-1 weighted sum is a multiple of 10', () => {
    expect([FIRM_BANK, ...CLAIMANT_BANKS].every(isRoutingNumber)).toBe(true)
  })

  it('refuses one wrong digit, two digits swapped, a wrong length, letters and all zeros', () => {
    for (const value of ['021000022', '201000021', '02100002', '0210000210', '02100002A', '000000000']) {
      expect(isRoutingNumber(value)).toBe(false)
    }
  })
})

describe('achName', () => {
  it('keeps capitals, digits, spaces and - . , & and drops what banks refuse', () => {
    expect(achName('  Zoë  Smith-Jones, Jr. & Co. <script>  ', 40)).toBe('ZOE SMITH-JONES, JR. & CO. SCRIPT')
    expect(achName('Straße 9')).toBe('STRASSE 9')
  })

  it('cuts a long name to the field and leaves no space at its end', () => {
    expect(achName('Maximilian Alexander Worthington')).toBe('MAXIMILIAN ALEXANDER W')
    expect(achName('Anna Maria Magdalena Di Stefano')).toBe('ANNA MARIA MAGDALENA D')
    expect(achName('Anna Maria Magdalenas Rest')).toBe('ANNA MARIA MAGDALENAS')
  })
})
