import fs from 'node:fs'
import path from 'node:path'
import Handlebars from 'handlebars'
import type { Representative, Respondent } from '../../src/filing-config.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { PROJECT_ROOT } from '../project-root.ts'

/** What a notice (notices/) or a demand (demands/) template is rendered with, one claimant each. */
export interface FilingTemplateContext {
  /** The day the document is made, written out ("November 28, 2026"). */
  date: string
  /** The claimant's row in the filing batch ('' on a notice, which comes before any batch). */
  rowId: string
  /** The app's name. */
  app: string
  /** The provider's name ('' on a notice). */
  provider: string
  claimant: {
    fullName: string
    firstName: string
    lastName: string
    street: string
    addressLine2: string
    city: string
    state: string
    zip: string
    email: string
    phone: string
  }
  claim: { id: number; filedAt: string; signedOn: string }
  /** The notice of dispute this demand follows (empty on the notice itself). */
  notice: { sentOn: string; method: string }
  respondent: Respondent
  /** What the demand claims, written out ("$1,000.00"): the app's filing `amountClaimedUsd`. */
  amountClaimed: string
  /** Lead counsel (the first representative), for the demand's signature block. */
  counsel: Representative
  representatives: Representative[]
  firm: { firmName: string; attorneyName: string; postalAddress: string; contactEmail: string }
  waitingPeriodDays: number
  clause: string
}

/**
 * A context with every value present, for the start-up's trial render: in strict mode a template that
 * names anything else fails there, with its name, rather than in a batch of ten thousand.
 */
export function filingTemplateContext(): FilingTemplateContext {
  const { firmName, attorneyName, postalAddress, contactEmail } = FIRM_SETTINGS
  return {
    date: 'November 28, 2026',
    rowId: 'B1-000001',
    app: 'Example App',
    provider: 'Example Provider',
    claimant: {
      fullName: 'Jane Doe',
      firstName: 'Jane',
      lastName: 'Doe',
      street: '1 Example St',
      addressLine2: 'Apt 2',
      city: 'Honolulu',
      state: 'HI',
      zip: '96815',
      email: 'jane@example.com',
      phone: '(808) 555-0100',
    },
    claim: { id: 1, filedAt: 'November 1, 2026', signedOn: 'November 1, 2026' },
    notice: { sentOn: 'November 2, 2026', method: 'certified mail' },
    respondent: { legalName: 'Example, Inc.', noticeAddress: ['Attn: Legal', 'City, ST'] },
    amountClaimed: '$1,000.00',
    counsel: {
      name: 'A. Lawyer',
      barNumber: 'CA 1',
      email: 'a@example.com',
      phone: '(213) 555-0100',
      firm: firmName,
    },
    representatives: [
      {
        name: 'A. Lawyer',
        barNumber: 'CA 1',
        email: 'a@example.com',
        phone: '(213) 555-0100',
        firm: firmName,
      },
    ],
    firm: { firmName, attorneyName, postalAddress, contactEmail },
    waitingPeriodDays: 60,
    clause: 'Any dispute shall be resolved by arbitration.',
  }
}

/**
 * A notice or demand template's problems: missing, not compiling (Handlebars names the line), or naming
 * a value the context does not have (strict mode names it and its line). Empty when it
 * renders.
 */
export function checkFilingTemplate(file: string): string[] {
  const shown = path.relative(PROJECT_ROOT, file)
  let source: string
  try {
    source = fs.readFileSync(file, 'utf8')
  } catch {
    return [`template ${shown} not found`]
  }
  try {
    Handlebars.create().compile(source, { strict: true, preventIndent: true })(filingTemplateContext())
    return []
  } catch (error) {
    // a parse error spans lines: "Parse error on line 3:", the source, a caret, then what was expected
    const lines = (error as Error).message.split('\n')
    const message =
      lines.length > 1
        ? `${lines[0]!.replace(/:$/, '')}: ${lines.at(-1)}`
        : // strict mode's '"x" not defined in [object Object] - 18:2' (line, column from 0)
          lines[0]!.replace(/ in \[object Object\] - (\d+):(\d+)$/, (_, line: string) => ` (line ${line})`)
    return [`${shown}: ${message}`]
  }
}
