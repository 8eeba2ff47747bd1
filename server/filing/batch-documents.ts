import Handlebars from 'handlebars'
import { NOTICE_METHOD_LABELS, type NoticeMethod } from '../../src/api/filing-batches.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { csvRecord, UTF8_BOM } from '../platform/csv.ts'
import type { BatchClaimRow } from './batch-claims.ts'
import type { FilingTemplateContext } from './filing-templates.ts'
import type { AppFiling } from './load-filing-config.ts'

const LONG_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: FIRM_SETTINGS.timeZone,
  year: 'numeric',
  month: 'long',
  day: 'numeric',
})

/** A day as documents write it ("January 27, 2027"); '' for none. A YYYY-MM-DD day is that day wherever read. */
export function longDate(value: string | number): string {
  if (value === '') return ''
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'long' }).format(
      Date.parse(`${value}T12:00:00Z`),
    )
  }
  return LONG_DATE.format(typeof value === 'number' ? value : Date.parse(value))
}

/** A notice's or a demand's template compiled as start-up checked it: strict, HTML-escaping every value. */
export function compileFilingTemplate(source: string): (context: FilingTemplateContext) => string {
  return Handlebars.create().compile(source, { strict: true, preventIndent: true })
}

/** What one claimant's notice or demand is rendered with. */
export function documentContext(
  claim: BatchClaimRow,
  {
    filing,
    appName,
    createdAt,
    provider,
  }: { filing: AppFiling; appName: string; createdAt: number; provider: string },
): FilingTemplateContext {
  const { settings } = filing
  const { firmName, attorneyName, postalAddress, contactEmail } = FIRM_SETTINGS
  const address = claim.address ?? { street: '', addressLine2: '', city: '', state: '', zip: '' }
  return {
    date: longDate(createdAt),
    rowId: claim.rowId,
    app: appName,
    provider,
    claimant: {
      fullName: `${claim.firstName} ${claim.lastName}`.trim(),
      firstName: claim.firstName,
      lastName: claim.lastName,
      ...address,
      email: claim.email,
      phone: claim.phone,
    },
    claim: { id: claim.claimId, filedAt: longDate(claim.filedAt), signedOn: longDate(claim.signedAt) },
    notice: {
      sentOn: claim.noticeSentOn === null ? '' : longDate(claim.noticeSentOn),
      method:
        claim.noticeMethod === null
          ? ''
          : NOTICE_METHOD_LABELS[claim.noticeMethod as NoticeMethod].toLowerCase(),
    },
    respondent: settings.respondent!,
    amountClaimed: USD.format(settings.amountClaimedUsd),
    counsel: settings.representatives[0]!,
    representatives: settings.representatives,
    firm: { firmName, attorneyName, postalAddress, contactEmail },
    waitingPeriodDays: settings.waitingPeriodDays,
    clause: settings.clause,
  }
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** The notice batch's mailing log: one line a notice, for the mail house or the e-mail to the respondent. */
export function mailingLogCsv(claims: readonly BatchClaimRow[], filing: AppFiling): string {
  const header = [
    'Claim ID',
    'Claimant',
    'Street',
    'Address Line 2',
    'City',
    'State',
    'ZIP',
    'Respondent',
    'Respondent Address',
    'Notice File',
  ]
  const respondent = filing.settings.respondent!
  return (
    UTF8_BOM +
    csvRecord(header) +
    claims
      .map((claim) =>
        csvRecord([
          claim.claimId,
          `${claim.firstName} ${claim.lastName}`.trim(),
          claim.address?.street ?? '',
          claim.address?.addressLine2 ?? '',
          claim.address?.city ?? '',
          claim.address?.state ?? '',
          claim.address?.zip ?? '',
          respondent.legalName,
          respondent.noticeAddress.join(', '),
          noticeFileName(claim.claimId),
        ]),
      )
      .join('')
  )
}

export function noticeFileName(claimId: number): string {
  return `notices/notice-${claimId}.pdf`
}

/** The representatives a filing names, as the provider's list asks. */
export function representativesCsv(filing: AppFiling): string {
  return (
    UTF8_BOM +
    csvRecord(['Name', 'Bar Number', 'E-mail', 'Phone', 'Firm']) +
    filing.settings.representatives
      .map(({ name, barNumber, email, phone, firm }) => csvRecord([name, barNumber, email, phone, firm]))
      .join('')
  )
}

/**
 * Counsel's affirmation (AAA) or declaration (JAMS, FedArb) for a filing batch, to be signed: it names
 * the batch, its count and its hash, so the signature covers exactly the rows and demands the manifest
 * lists, and the fraud checks every claimant in it passed (`fraudChecks`, fraud-statement.ts).
 */
export function statementHtml({
  batchId,
  count,
  batchHash,
  statement,
  providerName,
  appName,
  filing,
  createdAt,
  fraudChecks,
}: {
  batchId: number
  count: number
  batchHash: string
  statement: 'affirmation' | 'declaration'
  providerName: string
  appName: string
  filing: AppFiling
  createdAt: number
  /** The section on the fraud checks, as HTML. */
  fraudChecks: string
}): string {
  const { attorneyName, firmName } = FIRM_SETTINGS
  const respondent = filing.settings.respondent!
  const swears =
    statement === 'affirmation'
      ? 'affirm'
      : 'declare under penalty of perjury under the laws of the United States'
  const title = statement === 'affirmation' ? 'Affirmation of Counsel' : 'Declaration of Counsel'
  return `<article>
<h1>${title}</h1>
<p>${escape(longDate(createdAt))}</p>
<p><strong>Filing batch:</strong> ${batchId}, with ${escape(providerName)}</p>
<p><strong>Respondent:</strong> ${escape(respondent.legalName)}</p>
<p><strong>Claimants:</strong> ${count.toLocaleString('en-US')}</p>
<p><strong>Batch hash (SHA-256):</strong> ${batchHash}</p>
<p>I, ${escape(attorneyName)}, of ${escape(firmName)}, counsel for each claimant in this batch, ${swears} that, to the best of my knowledge after reasonable inquiry, each of the ${count.toLocaleString('en-US')} rows of the batch's spreadsheet is true: each names a claimant who had an account with ${escape(appName)}, who signed an agreement for this firm to represent them, and whose notice of dispute was sent to the respondent before the waiting period ran.</p>
${fraudChecks}
<p>The batch hash above is the SHA-256 of the batch's manifest of files and claims (manifest.json's "batchHash"): it names exactly the spreadsheet, the demands and the claimants this statement covers.</p>
<p>Signature: ______________________________</p>
<p>Name: ${escape(attorneyName)}</p>
<p>Date: ______________________________</p>
</article>`
}

function escape(text: string): string {
  return Handlebars.escapeExpression(text)
}
