import nach from 'nach2'
import { achName } from './ach-name.ts'
import { decimalAmount } from './decimal-amount.ts'
import { maskNumber } from './mask-number.ts'
import { achAccountNumber, nachaProblems, type NachaCredit, type NachaOriginator } from './nacha-problems.ts'

export interface NachaFile {
  /** 94-character records ending in CRLF, padded with 9s to a multiple of 10. */
  text: string
  /** Each credit's trace number, the one a return names. */
  entries: { reference: string; traceNumber: string }[]
  entryCount: number
  batchCount: number
  totalCreditCents: number
}

// PPD credits: 22 into a checking account, 32 into a savings account
const TRANSACTION_CODES = { checking: '22', savings: '32' } as const
const CREDITS_ONLY = '220'
/**
 * nach2 adds up a batch's totals again over all its entries each time one is added, so a batch's cost
 * grows with the square of its size (10,000 entries in one batch take seconds): the credits go in
 * batches of this many, which NACHA allows in any number.
 */
export const NACHA_BATCH_ENTRIES = 500
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']

/**
 * A NACHA file of PPD batches crediting each claimant from the firm's account, made with nach2. Every
 * routing number is checked (ABA checksum) and every problem named before anything is built; bank and
 * taxpayer numbers appear in a message by their last four digits only. What nach2 wrote is read back
 * and checked against the cents added up as integers before the file is returned.
 */
export async function buildNachaFile({
  originator,
  credits,
  entryDescription,
  effectiveDate,
  createdAt,
  timeZone,
  fileIdModifier = 'A',
  referenceCode = 'PAYOUTS',
}: {
  originator: NachaOriginator
  credits: readonly NachaCredit[]
  /** What the claimant's statement shows, up to 10 characters: "SETTLEMENT". */
  entryDescription: string
  /** The banking day the money should arrive, YYYY-MM-DD. */
  effectiveDate: string
  createdAt: Date
  /** The firm's zone, which the file's creation date and time are written in. */
  timeZone: string
  /** A to Z or 0 to 9: tells apart files made on the same day. */
  fileIdModifier?: string
  /** The file header's last field, up to 8 characters, for the firm's own use. */
  referenceCode?: string
}): Promise<NachaFile> {
  const settings = { originator, credits, entryDescription, effectiveDate, fileIdModifier, referenceCode }
  const problems = nachaProblems(settings)
  if (problems.length) throw new Error(`the ACH file cannot be made: ${problems.join('; ')}`)
  const odfi = originator.originatingDfi.slice(0, 8)
  const entries = credits.map((credit, index) => ({
    reference: credit.reference,
    traceNumber: `${odfi}${String(index + 1).padStart(7, '0')}`,
  }))
  let text: string
  try {
    const created = creationStamp(createdAt, timeZone)
    const file = new nach.File({
      immediateDestination: originator.immediateDestination,
      immediateOrigin: originator.immediateOrigin,
      immediateDestinationName: achName(originator.immediateDestinationName, 23),
      immediateOriginName: achName(originator.immediateOriginName, 23),
      fileCreationDate: created.date,
      fileCreationTime: created.time,
      fileIdModifier: fileIdModifier.toUpperCase(),
      referenceCode: achName(referenceCode, 8),
      batchSequenceNumber: 1,
    })
    for (let start = 0; start < credits.length; start += NACHA_BATCH_ENTRIES) {
      const batch = newBatch({ originator, entryDescription, effectiveDate })
      credits.slice(start, start + NACHA_BATCH_ENTRIES).forEach((credit, offset) => {
        batch.addEntry(newEntry(credit, entries[start + offset]!.traceNumber))
      })
      file.addBatch(batch)
    }
    text = await new Promise<string>((resolve) => file.generateFile(resolve))
  } catch (error) {
    // nach2's messages can quote a routing number whole
    throw new Error(`the ACH file cannot be made: ${maskDigitRuns(String((error as Error).message))}`)
  }
  if (!text.endsWith('\r\n')) text += '\r\n'
  checkWritten({ text, credits })
  return {
    text,
    entries,
    entryCount: credits.length,
    batchCount: Math.ceil(credits.length / NACHA_BATCH_ENTRIES),
    totalCreditCents: sumCents(credits.map((credit) => credit.amountCents)),
  }
}

function newBatch({
  originator,
  entryDescription,
  effectiveDate,
}: {
  originator: NachaOriginator
  entryDescription: string
  effectiveDate: string
}): InstanceType<typeof nach.Batch> {
  const [year, month, day] = effectiveDate.split('-').map(Number) as [number, number, number]
  return new nach.Batch({
    serviceClassCode: CREDITS_ONLY,
    companyName: achName(originator.companyName, 16),
    companyIdentification: originator.companyIdentification,
    standardEntryClassCode: 'PPD',
    companyEntryDescription: achName(entryDescription, 10),
    // the date the claimant's statement shows beside the description
    companyDescriptiveDate: `${MONTHS[month - 1]} ${String(day).padStart(2, '0')}`,
    // nach2 writes this date with the local clock's getters: a local midnight gives back the same day
    effectiveEntryDate: new Date(year, month - 1, day),
    originatingDFI: originator.originatingDfi,
  })
}

function newEntry(credit: NachaCredit, traceNumber: string): InstanceType<typeof nach.Entry> {
  return new nach.Entry({
    transactionCode: TRANSACTION_CODES[credit.accountType],
    receivingDFI: credit.routingNumber,
    DFIAccount: achAccountNumber(credit.accountNumber),
    // nach2 reads dollars; a string with two decimals comes back out as the same digits
    amount: decimalAmount(credit.amountCents),
    idNumber: credit.reference,
    individualName: achName(credit.name),
    // blank, as NACHA leaves it; nach2 refuses an empty value but takes the spaces it stands for
    discretionaryData: '  ',
    traceNumber,
  })
}

/**
 * nach2 adds dollar amounts as floats: each entry's amount, each batch's and the file's totals and
 * counts as it wrote them are compared with the integers, and a file that disagrees is never handed on.
 */
function checkWritten({ text, credits }: { text: string; credits: readonly NachaCredit[] }): void {
  const lines = text.split('\r\n').slice(0, -1)
  const wrong = new Set<string>()
  if (lines.some((line) => line.length !== 94)) wrong.add('a record is not 94 characters')
  if (lines.length % 10 !== 0) wrong.add('the records do not fill whole blocks of 10')
  const written: number[] = []
  let batchCents: number[] = []
  for (const line of lines) {
    if (line.startsWith('6')) {
      const cents = Number(line.slice(29, 39))
      written.push(cents)
      batchCents.push(cents)
    } else if (line.startsWith('8')) {
      if (Number(line.slice(4, 10)) !== batchCents.length) wrong.add('a batch control count')
      if (line.slice(32, 44) !== twelveDigits(sumCents(batchCents))) wrong.add('a batch control total')
      batchCents = []
    } else if (line.startsWith('9') && !/^9+$/.test(line)) {
      if (Number(line.slice(13, 21)) !== credits.length) wrong.add('the file control count')
      const total = sumCents(credits.map((credit) => credit.amountCents))
      if (line.slice(43, 55) !== twelveDigits(total)) wrong.add('the file control total')
    }
  }
  if (
    written.length !== credits.length ||
    written.some((cents, index) => cents !== credits[index]!.amountCents)
  )
    wrong.add('an entry amount')
  if (wrong.size) throw new Error(`nach2 wrote an ACH file that does not add up: ${[...wrong].join(', ')}`)
}

function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((sum, cents) => sum + cents, 0)
}

function twelveDigits(cents: number): string {
  return String(cents).padStart(12, '0')
}

/** YYMMDD and HHMM of `at` in `timeZone`. */
function creationStamp(at: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: '2-digit',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  )
  return { date: `${parts.year}${parts.month}${parts.day}`, time: `${parts.hour}${parts.minute}` }
}

function maskDigitRuns(text: string): string {
  return text.replace(/\d{5,}/g, (digits) => maskNumber(digits))
}
