import { sourceOf, type Attribution } from '../../src/attribution.ts'
import { storedSignals, type FormSignals } from '../../src/form-signals.ts'
import { agreementContext } from '../../src/agreement-context.ts'
import type { CreatedClaim } from '../../src/api/claims.ts'
import { AppError } from '../../src/app-error.ts'
import {
  DUPLICATE_CLAIM_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  SIGNATURE_REQUIRED_MESSAGE,
} from '../../src/claim-messages.ts'
import { isFormOpen, type ClaimData, type FormConfig } from '../../src/form-config.ts'
import { normalizePhone } from '../../src/phone.ts'
import { readClaimSigning, type ClaimSigning } from '../../src/signing.ts'
import type { Locale, Translator } from '../../src/translate.ts'
import { fieldLabel } from '../../src/validate-submission.ts'
import { acceptAgreementDate } from '../agreements/agreement-date.ts'
import type { SignerInfo } from '../platform/signer.ts'
import type { ClaimStore } from './claim-store.ts'
import type { ClaimRecord } from '../evidence/sealed-record.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { ClaimToCommit } from './new-claim.ts'
import { assertValidOnServer } from '../forms/validate-on-server.ts'
import { assertSignatureAccepted } from '../uploads/check-signature.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { UploadedFile } from '../uploads/upload-middleware.ts'
import { releaseScreenshot, type ClaimContent, type ContentChecker } from '../claim-content/claim-content.ts'
import { parseData } from './claim-input.ts'
import type { AdoptedSignature } from '../intake/adopted-signature.ts'
import type { IntakeTie } from '../confirmations/intake-ties.ts'

/** What the claim path works with, given once when the server starts. */
export interface ClaimServices {
  claims: ClaimStore
  storage: ScreenshotStorage
  /** Checks the screenshot and the signature by their bytes and renders the agreement the form showed. */
  checkContent: ContentChecker
  /** The agreement templates' version, stored in the signed record. */
  templateVersion: string
  /** The main-form intake the claim names (intake-ties.ts), from its contact and its Step 2 link's intake. */
  intakeFor(contact: { email: string; phoneNumber: string; linkedIntakeId?: number }): Promise<IntakeTie>
  /** The main form's signature the claim adopts, refused unless its Step 2 link ties it (adopted-signature.ts). */
  adoptSignature(contact: {
    email: string
    phoneNumber: string
    linkedIntakeId?: number
  }): Promise<AdoptedSignature>
}

/** One Step 2 claim as it arrived. */
export interface ClaimRequest {
  /** The app's config in the claimant's language: its messages answer, its consent is stored. */
  config: FormConfig
  /** The claimant's language: the agreement is rendered and stored in it. */
  locale: Locale
  /** The server's own messages in that language. */
  t: Translator
  /** The "data" field: the answers as JSON. */
  rawData: unknown
  /** The date the form printed in the agreement (the claimant's today), YYYY-MM-DD. */
  agreementDate: unknown
  /** How the claimant signed, as sent beside the answers (drawn when left out). */
  signing: { signatureMethod: unknown; typedSignature: unknown }
  file: UploadedFile | undefined
  signer: SignerInfo
  /** The e-mailed links' origin (linkOrigin): the e-mail copy's confirmation link points there. */
  siteOrigin: string
  /** The intake a good pre-fill token named (the claimant came by its Step 2 link). */
  linkedIntakeId?: number | undefined
  /** Where the claimant came from (the first landing's campaign parameters), already cleaned. */
  attribution?: Attribution | undefined
  /** What the form saw as it was filled in, already cleaned: kept for the fraud tests. */
  signals?: FormSignals | undefined
}

/**
 * A Step 2 claim, step by step. Any failure leaves neither rows nor file behind; a crash before the
 * commit leaves a file without a row, which the next start-up removes.
 */
export async function createClaim(
  { claims, storage, checkContent, templateVersion, intakeFor, adoptSignature }: ClaimServices,
  {
    config,
    locale,
    t,
    rawData,
    agreementDate,
    signing: sentSigning,
    file,
    signer,
    siteOrigin,
    linkedIntakeId,
    attribution,
    signals,
  }: ClaimRequest,
): Promise<CreatedClaim> {
  // 1. the form takes claims, and the request reads as one
  assertFormTakesClaims(config)
  const data = parseData(rawData, file)
  const signing = readClaimSigning(sentSigning)
  // '+1 555.867.5309' and every usual writing of a US number become '(555) 867-5309' before the check
  if (typeof data.phoneNumber === 'string') data.phoneNumber = normalizePhone(data.phoneNumber)

  // an adopted signature is the main form's, of the intake whose Step 2 link the claimant came by
  const adopted =
    signing.method === 'adopted'
      ? await adoptSignature({
          ...contactOf(data),
          ...(linkedIntakeId === undefined ? {} : { linkedIntakeId }),
        })
      : undefined
  if (adopted) data.signature = adopted.image

  // 2. the answers pass the form's own schema, as in the browser
  assertValidOnServer(config.schema, data)
  const claim = data as unknown as ClaimData
  const signedAt = new Date()
  const claimant = claimantFields(claim)

  // 3. the screenshot is an image and the signature a PNG, by their bytes; the agreement is rendered,
  // and the record that seals the signing is written but for the claim's id
  const content = await checkContent({
    screenshot: file!.buffer,
    signature: claim.signature,
    variant: config.agreement.template,
    locale,
    context: agreementContext({
      app: config,
      answers: claim,
      date: acceptAgreementDate(agreementDate, signedAt),
      locale,
      ...(adopted ? { adoptedOn: adopted.signedAt.slice(0, 10) } : {}),
    }),
    record: {
      kind: 'claim',
      app: config.slug,
      fields: claimant,
      consent: { text: config.agreement.consent },
      signature: {
        image: claim.signature,
        method: signing.method,
        typedName: signing.typedName ?? null,
        ...(adopted ? { adoptedFrom: adopted.from } : {}),
      },
      locale,
      signedAt: signedAt.toISOString(),
      ipAddress: signer.ipAddress,
      userAgent: signer.userAgent,
    },
  })
  assertContentAccepted(config, t, content)

  // 4. one claim per app and phone (the unique index decides a race; this answers the common case early)
  if (await claims.hasClaimForPhone({ app: config.slug, phoneNumber: claim.phoneNumber })) {
    throw duplicateError()
  }

  // the claimant's intake: the one their link named if the claim shares its e-mail or phone, else the
  // one with the same e-mail and phone
  const intake =
    adopted?.tie ??
    (await intakeFor({
      email: claimant.email,
      phoneNumber: claimant.phoneNumber,
      ...(linkedIntakeId === undefined ? {} : { linkedIntakeId }),
    }))

  // 5. the screenshot is stored, then the claim, its signed record and its e-mail copy in one commit
  const key = await storage.save({
    app: config.slug,
    extension: content.image.extension,
    bytes: content.screenshot,
  })
  releaseScreenshot(content)
  const toCommit = claimToCommit(
    { config, locale, claim, claimant, signing, adopted, signer, intake, attribution, signals },
    {
      content,
      screenshot: { key, mime: content.image.mime },
      signedAt: signedAt.toISOString(),
      templateVersion,
    },
  )
  try {
    const id = await claims.commitClaim({
      ...toCommit,
      linkOrigin: siteOrigin,
      isScreenshotKept: () => storage.has(key),
    })
    return { id, createdAt: toCommit.claim.created_at }
  } catch (error) {
    await storage.remove(key)
    if (isUniqueViolation(error)) throw duplicateError()
    throw error
  }
}

/** A closed app (klover) refuses claims with its notice. */
export function assertFormTakesClaims(config: FormConfig): void {
  if (isFormOpen(config)) return
  const notice = config.status.state === 'closed' ? config.status.notice : undefined
  throw new AppError('FORM_CLOSED', {
    status: 410,
    message: notice ? `${notice.heading}. ${notice.body}` : `form "${config.slug}" is closed`,
  })
}

function assertContentAccepted(
  config: FormConfig,
  t: Translator,
  content: ClaimContent,
): asserts content is ClaimContent & { image: NonNullable<ClaimContent['image']> } {
  if (!content.image) {
    throw new AppError('UPLOAD_NOT_IMAGE', {
      status: 422,
      message: `${fieldLabel(config.schema, 'screenshotFile')}: ${t(NOT_AN_IMAGE_MESSAGE)}`,
      fields: { screenshotFile: { __errors: [NOT_AN_IMAGE_MESSAGE] } },
    })
  }
  assertSignatureAccepted(
    content.signature,
    fieldLabel(config.schema, 'signature'),
    t(SIGNATURE_REQUIRED_MESSAGE),
  )
}

/** The contact as claimantFields stores it, read before the answers are checked. */
function contactOf(data: Record<string, unknown>): { email: string; phoneNumber: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return { email: text(data.email).trim().toLowerCase(), phoneNumber: text(data.phoneNumber) }
}

/** The claimant's answers as stored and sealed: names trimmed, e-mail lowercased. */
function claimantFields(claim: ClaimData): ClaimRecord['fields'] {
  return {
    firstName: claim.firstName.trim(),
    lastName: claim.lastName.trim(),
    email: claim.email.trim().toLowerCase(),
    // the schema's pattern admits only the stored writing, '(555) 867-5309'
    phoneNumber: claim.phoneNumber,
    cashAdvanceCount: claim.cashAdvanceCount,
    membershipMonths: claim.membershipMonths,
  }
}

/** The claim's row and its signed record as stored: who signed what, then what the server made of it. */
function claimToCommit(
  {
    config,
    locale,
    claim,
    claimant,
    signing,
    adopted,
    signer,
    intake,
    attribution,
    signals,
  }: {
    config: FormConfig
    locale: Locale
    claim: ClaimData
    claimant: ClaimRecord['fields']
    signing: ClaimSigning
    adopted: AdoptedSignature | undefined
    signer: SignerInfo
    intake: IntakeTie
    attribution: Attribution | undefined
    signals: FormSignals | undefined
  },
  {
    content,
    screenshot,
    signedAt,
    templateVersion,
  }: {
    content: ClaimContent
    screenshot: { key: string; mime: string }
    signedAt: string
    templateVersion: string
  },
): Omit<ClaimToCommit, 'isScreenshotKept' | 'linkOrigin'> {
  return {
    claim: {
      app: config.slug,
      created_at: signedAt,
      first_name: claimant.firstName,
      last_name: claimant.lastName,
      email: claimant.email,
      phone_number: claimant.phoneNumber,
      cash_advance_count: claimant.cashAdvanceCount,
      membership_months: claimant.membershipMonths,
      screenshot_key: screenshot.key,
      screenshot_type: screenshot.mime,
      screenshot_sha256: content.screenshotSha256,
      locale,
      intake_id: intake.intakeId,
      intake_by_link: intake.byLink ? 1 : 0,
      source: sourceOf(attribution),
      attribution: attribution ? JSON.stringify(attribution) : null,
      signals: storedSignals(signals),
    },
    record: {
      template: config.agreement.template,
      template_version: templateVersion,
      html: content.htmlUtf8,
      sha256: content.sha256,
      signature: claim.signature,
      signed_at: signedAt,
      ip_address: signer.ipAddress,
      user_agent: signer.userAgent,
      consent_text: config.agreement.consent,
      locale,
      signature_method: signing.method,
      typed_signature: signing.typedName ?? null,
      adopted_from: adopted?.from ?? null,
    },
    recordParts: content.recordParts,
  }
}

function duplicateError(): AppError {
  return new AppError('DUPLICATE_SUBMISSION', { status: 409, message: DUPLICATE_CLAIM_MESSAGE })
}
