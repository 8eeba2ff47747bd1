import { ATTRIBUTION_FIELD, readAttribution, sourceOf } from '../../src/attribution.ts'
import { readFormSignals, SIGNALS_FIELD, storedSignals } from '../../src/form-signals.ts'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { agreementContext } from '../../src/agreement-context.ts'
import {
  intakeAgreementApp,
  intakeConsentTexts,
  type IntakeConfig,
  type IntakeData,
} from '../../src/intake-config.ts'
import { normalizePhone } from '../../src/phone.ts'
import type { Locale, Translator } from '../../src/translate.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { SignerInfo } from '../platform/signer.ts'
import { acceptAgreementDate } from '../agreements/agreement-date.ts'
import { fieldLabel } from '../../src/validate-submission.ts'
import { splitSigning } from '../../src/signing.ts'
import { assertValidOnServer } from '../forms/validate-on-server.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { Database } from '../db/database.ts'
import { assertSignatureAccepted } from '../uploads/check-signature.ts'
import type { IntakeContentChecker } from '../claim-content/claim-content.ts'
import { insertIntakeWithCases } from './intake.repository.ts'
import { stateTimeZone } from '../journey/claimant-day.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

export const INTAKE_SIGNATURE_MESSAGE = 'Signature is required'
export const DUPLICATE_INTAKE_MESSAGE =
  'A submission with this email and phone number already exists. Numerous submissions will not increase your chances of a payout.'
/** The same, with the returning claimant's way to their claims, and to an app they missed. */
export const DUPLICATE_INTAKE_LINK_MESSAGE = `${DUPLICATE_INTAKE_MESSAGE} We e-mailed you a link to your claims, where you can add an app you missed.`

/**
 * Checks the main intake with the form's own schema, then stores it with one case per chosen app in
 * one transaction. The unique index on (email, phone) makes the duplicate rule race-safe.
 */
export async function createIntake({
  db,
  evidenceKey,
  templates,
  checkContent,
  config,
  locale,
  t,
  data,
  agreementDate,
  signer,
  linkOrigin,
}: {
  db: Kysely<Database>
  /** Makes the HMACs of the intake's seal in the evidence ledger. */
  evidenceKey: Buffer
  templates: AgreementTemplates
  /** Checks the signature and renders the agreement (off the event loop when the server runs). */
  checkContent: IntakeContentChecker
  /** The intake config in the claimant's language: its messages answer, its consent texts are stored. */
  config: IntakeConfig
  locale: Locale
  /** The server's own messages in that language. */
  t: Translator
  data: unknown
  /** The date the page printed in the agreement (the claimant's today), YYYY-MM-DD. */
  agreementDate: unknown
  signer: SignerInfo
  /** The e-mailed links' origin (linkOrigin): the claimant's journey keeps it for its e-mails. */
  linkOrigin: string
}): Promise<{ id: number; createdAt: string; apps: string[] }> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const found = data === null ? 'null' : Array.isArray(data) ? 'an array' : `a ${typeof data}`
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: `send the intake as a JSON object, not ${found}`,
    })
  }
  // where the claimant came from and how they signed travel beside the answers; the config's schema
  // knows only the answers
  const {
    [ATTRIBUTION_FIELD]: sentAttribution,
    [SIGNALS_FIELD]: sentSignals,
    ...sent
  } = data as Record<string, unknown>
  // a filled trap (a bot) is refused here, before anything is checked or stored
  const signals = readFormSignals(sentSignals)
  const attribution = readAttribution(sentAttribution)
  const { signing, answers } = splitSigning(sent)
  // '+1 555.867.5309' and every usual writing of a US number become '(555) 867-5309' before the check
  if (typeof answers.phone === 'string') answers.phone = normalizePhone(answers.phone)
  assertValidOnServer(config.schema, answers)
  const intake = answers as unknown as IntakeData
  const closed = intake.cashAdvanceApps.filter((app) => config.closedApps[app])
  if (closed.length > 0) {
    const notice = config.closedApps[closed[0]!]!
    throw new AppError('FORM_CLOSED', {
      status: 422,
      message: `${notice.heading}. ${notice.body}`,
      fields: { cashAdvanceApps: { __errors: [notice.heading] } },
    })
  }

  const consents = intakeConsentTexts(config)
  const signedAt = new Date()
  const createdAt = signedAt.toISOString()
  // the signature checked, and the agreement the consent names rendered as the page showed it (its
  // apps, its language, its date)
  const content = await checkContent({
    signature: intake.signature,
    variant: config.agreement.template,
    locale,
    context: agreementContext({
      app: intakeAgreementApp({ config, chosen: intake.cashAdvanceApps, locale, noneChosen: '' }),
      answers: { ...intake, phoneNumber: intake.phone },
      date: acceptAgreementDate(agreementDate, signedAt),
      locale,
    }),
  })
  assertSignatureAccepted(
    content.signature,
    fieldLabel(config.schema, 'signature'),
    t(INTAKE_SIGNATURE_MESSAGE),
  )
  try {
    const id = await insertIntakeWithCases(db, evidenceKey, {
      apps: intake.cashAdvanceApps,
      journey: {
        timeZone: stateTimeZone(intake.state, FIRM_SETTINGS.timeZone),
        linkOrigin,
        now: signedAt.getTime(),
      },
      intake: {
        created_at: createdAt,
        cash_advance_apps: JSON.stringify(intake.cashAdvanceApps),
        fees_incurred: JSON.stringify(intake.feesIncurred),
        is_over_18: intake.isOver18 ? 1 : 0,
        is_active_military: intake.isActiveMilitary ? 1 : 0,
        has_bankruptcy: intake.hasBankruptcy ? 1 : 0,
        first_name: intake.firstName.trim(),
        last_name: intake.lastName.trim(),
        email: intake.email.trim().toLowerCase(),
        // the schema's pattern admits only the stored writing, '(555) 867-5309'
        phone: intake.phone,
        address: intake.address.trim(),
        address_line_2: (intake.addressLine2 ?? '').trim(),
        city: intake.city.trim(),
        state: intake.state,
        zip_code: intake.zipCode.trim(),
        signature: intake.signature,
        consent_agreed: intake.consentAgreed ? 1 : 0,
        // an unticked box sends nothing: only a tick is consent, never its absence
        communications_consent: intake.communicationsConsent === true ? 1 : 0,
        consent_version: config.consentVersion,
        source: sourceOf(attribution),
        attribution: attribution ? JSON.stringify(attribution) : null,
        signals: storedSignals(signals),
        consent_text: consents.main,
        communications_consent_text: consents.communications,
        locale,
        agreement_template: config.agreement.template,
        agreement_template_version: templates.version,
        agreement_html: content.html,
        agreement_sha256: content.sha256,
        ip_address: signer.ipAddress,
        user_agent: signer.userAgent,
        signature_method: signing.method,
        typed_signature: signing.typedName ?? null,
      },
    })
    return { id, createdAt, apps: intake.cashAdvanceApps }
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('DUPLICATE_SUBMISSION', { status: 409, message: DUPLICATE_INTAKE_MESSAGE })
    }
    throw error
  }
}
