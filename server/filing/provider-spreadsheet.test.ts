import fs from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { loadFilings } from './load-filing-config.ts'
import {
  missingForFiling,
  spreadsheetCsv,
  spreadsheetRows,
  writeSpreadsheetXlsx,
  type FilingClaim,
} from './provider-spreadsheet.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'filing')
const filings = loadFilings(FORMS_DIR, ['earnin', 'chime'])

const claim = (over: Partial<FilingClaim> = {}): FilingClaim => ({
  claimId: 1234,
  rowId: 'B7-0001',
  firstName: 'Maria José',
  lastName: 'Peña',
  email: 'maria@example.com',
  phone: '(808) 555-0100',
  app: 'Earnin',
  filedAt: '2026-11-01T18:00:00.000Z',
  address: { street: '12 Kalakaua Ave', addressLine2: '', city: 'Honolulu', state: 'HI', zip: '02115' },
  ...over,
})

describe("a provider's spreadsheet", () => {
  it("writes AAA's columns, as the golden file has them, with one row per claimant", () => {
    const { settings, profile } = filings('earnin')
    const csv = spreadsheetCsv(
      spreadsheetRows([claim(), claim({ claimId: 1235, rowId: 'B7-0002' })], settings, profile),
    )
    expect(csv).toBe(fs.readFileSync(path.join(FIXTURES, 'aaa-earnin.csv'), 'utf8'))
  })

  it('names each field the provider requires that a claim lacks, and nothing for a complete one', () => {
    const { settings, profile } = filings('chime')
    expect(missingForFiling(claim(), settings, profile)).toEqual([])
    expect(missingForFiling(claim({ address: null }), settings, profile)).toEqual([
      'claim 1234: no street address',
      'claim 1234: no city',
      'claim 1234: no state',
      'claim 1234: no ZIP code',
    ])
    expect(missingForFiling(claim({ email: ' ' }), { ...settings, respondent: undefined }, profile)).toEqual([
      'claim 1234: no e-mail',
      'claim 1234: no respondent (set one in the app\'s "filing")',
    ])
  })

  it('writes the same rows as an XLSX whose cells are text: the ZIP keeps its zero, a formula stays words', async () => {
    const { settings, profile } = filings('earnin')
    const rows = spreadsheetRows([claim({ lastName: '=HYPERLINK("x")' })], settings, profile)
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (chunk: Buffer) => chunks.push(chunk))
    await writeSpreadsheetXlsx(rows, out, 'AAA filing')
    const workbook = new ExcelJS.Workbook()
    // exceljs types its input with an older Buffer than node's own
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as Parameters<typeof workbook.xlsx.load>[0])
    const sheet = workbook.getWorksheet('AAA filing')!
    // an empty cell reads back as no value
    const values = (row: number) =>
      Array.from({ length: rows[0]!.length }, (_, i) => sheet.getRow(row).getCell(i + 1).value ?? '')
    expect(values(1)).toEqual(rows[0])
    expect(values(2)).toEqual(rows[1])
    expect(sheet.getCell('H2').value).toBe('02115')
    expect(sheet.getCell('C2').formula).toBeUndefined()
  })
})
