import type { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { FilingField, FilingSettings, ProviderProfile } from '../../src/filing-config.ts'
import { csvRecord, UTF8_BOM } from '../platform/csv.ts'

/** One claimant of a filing: the claim's own answers, and the address their main-form intake gave. */
export interface FilingClaim {
  claimId: number
  /** The claimant's row in the batch: the provider's unique ID, and the name of their demand's PDF. */
  rowId: string
  firstName: string
  lastName: string
  email: string
  phone: string
  /** The app's name. */
  app: string
  /** When the claim came in (ISO 8601). */
  filedAt: string
  /** From the intake the claim is tied to; null when it has none. */
  address: { street: string; addressLine2: string; city: string; state: string; zip: string } | null
}

/** How a missing field is named to staff, in "claim 1234: no street address". */
const FIELD_NAMES: Record<FilingField, string> = {
  rowId: 'row ID',
  claimId: 'claim ID',
  firstName: 'first name',
  lastName: 'last name',
  fullName: 'name',
  street: 'street address',
  addressLine2: 'address line 2',
  city: 'city',
  state: 'state',
  zip: 'ZIP code',
  email: 'e-mail',
  phone: 'phone',
  app: 'app',
  respondent: 'respondent (set one in the app\'s "filing")',
  respondentAddress: 'respondent address',
  representativeName: 'representative',
  representativeBarNumber: "representative's bar number",
  representativeEmail: "representative's e-mail",
  representativePhone: "representative's phone",
  representativeFirm: "representative's firm",
  filedAt: 'filing date',
}

/** The value of one column for one claimant ('' when the claim or the settings have none). */
export function fieldValue(field: FilingField, claim: FilingClaim, settings: FilingSettings): string {
  // the first representative is the one a provider writes to
  const representative = settings.representatives[0]
  switch (field) {
    case 'rowId':
      return claim.rowId
    case 'claimId':
      return String(claim.claimId)
    case 'firstName':
    case 'lastName':
    case 'email':
    case 'phone':
    case 'app':
    case 'filedAt':
      return claim[field].trim()
    case 'fullName':
      return `${claim.firstName} ${claim.lastName}`.trim()
    case 'street':
    case 'addressLine2':
    case 'city':
    case 'state':
    case 'zip':
      return claim.address?.[field].trim() ?? ''
    case 'respondent':
      return settings.respondent?.legalName ?? ''
    case 'respondentAddress':
      return settings.respondent?.noticeAddress.join(', ') ?? ''
    case 'representativeName':
      return representative?.name ?? ''
    case 'representativeBarNumber':
      return representative?.barNumber ?? ''
    case 'representativeEmail':
      return representative?.email ?? ''
    case 'representativePhone':
      return representative?.phone ?? ''
    case 'representativeFirm':
      return representative?.firm ?? ''
  }
}

/**
 * What keeps a claim out of a filing with this provider: one line per field the profile requires that
 * the claim lacks, e.g. "claim 1234: no street address". Empty when it can be filed.
 */
export function missingForFiling(
  claim: FilingClaim,
  settings: FilingSettings,
  profile: ProviderProfile,
): string[] {
  return profile.required
    .filter((field) => fieldValue(field, claim, settings) === '')
    .map((field) => `claim ${claim.claimId}: no ${FIELD_NAMES[field]}`)
}

/** The provider's spreadsheet as rows of text: its headers, then one row per claimant in order. */
export function spreadsheetRows(
  claims: Iterable<FilingClaim>,
  settings: FilingSettings,
  profile: ProviderProfile,
): string[][] {
  const rows = [profile.columns.map((column) => column.header)]
  for (const claim of claims) {
    rows.push(profile.columns.map((column) => fieldValue(column.field, claim, settings)))
  }
  return rows
}

/** The rows as a CSV a spreadsheet opens in UTF-8 (byte-order mark, CRLF, formulas neutralised). */
export function spreadsheetCsv(rows: string[][]): string {
  return UTF8_BOM + rows.map((row) => csvRecord(row)).join('')
}

/**
 * The rows as an XLSX workbook of one sheet, written to `output` row by row (exceljs's streaming
 * writer: a batch of ten thousand is never whole in memory). Every cell is text, so a ZIP code keeps
 * its leading zero and nothing is read as a formula.
 */
export async function writeSpreadsheetXlsx(
  rows: string[][],
  output: Writable,
  sheetName: string,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false })
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31))
  const [header = [], ...body] = rows
  sheet.columns = header.map((title) => ({
    header: title,
    width: Math.max(12, Math.min(40, title.length + 2)),
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  for (const values of body) {
    const row = sheet.addRow(values)
    row.eachCell((cell) => {
      cell.numFmt = '@'
    })
    row.commit()
  }
  sheet.commit()
  await workbook.commit()
}
