import type { Kysely } from 'kysely'
import { agreementContext } from '../../src/agreement-context.ts'
import { AppError } from '../../src/app-error.ts'
import { claimValidator } from '../../src/claim-validator.ts'
import { isFormOpen, type ClaimData, type FormConfig } from '../../src/form-config.ts'
import { normalizePhone } from '../../src/phone.ts'
import type { Locale, Translator } from '../../src/translate.ts'
import { fieldLabel } from '../../src/validate-submission.ts'
import { readSigning } from '../../src/signing.ts'
import { validateOnServer } from '../forms/validate-on-server.ts'
import type { Database } from '../db/database.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import {
  DUPLICATE_CLAIM_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  SIGNATURE_REQUIRED_MESSAGE,
} from '../../src/claim-messages.ts'
import { checkClaimContent } from './claim-content.ts'
import { acceptAgreementDate } from '../agreements/agreement-date.ts'
import type { SignerInfo } from '../agreements/signer.ts'
import type { CreatedClaim } from '../../src/api/claims.ts'
import { signatureError } from '../uploads/check-signature.ts'
import type { UploadedFile } from '../uploads/upload-middleware.ts'
import { parseData } from './claim-input.ts'
import type { ClaimWrites } from './claim-writes.ts'

/** Who signed, from where: kept in the signed record. */
/** The signed agreement as stored (its e-mail copy is queued with it). */
export interface SignedAgreement {
  html: string
  sha256: string
  templateVersion: string
  signedAt: string
}

/**
 * Checks a Step 2 claim as the browser did (same schema), checks the screenshot and the signature by
 * their bytes and renders the agreement the form showed (in the content thread, claim-content.ts),
 * stores the file (synced to disk), then the claim and its signed record in one transaction. Any
 * failure leaves neither rows nor file behind; a crash before the commit leaves a file without a row,
 * which the next start-up removes.
 */
export async function createClaim({
  db,
  writes,
  storage,
  templates,
  config,
  locale,
  t,
  rawData,
  agreementDate,
  signing: rawSigning,
  file,
  signer,
}: {
  db: Kysely<Database>
  /** The claim's statements, compiled once for db (compileClaimWrites). */
  writes: ClaimWrites
  storage: ScreenshotStorage
  templates: AgreementTemplates
  /** The app's config in the claimant's language: its messages answer, its consent is stored. */
  config: FormConfig
  /** The claimant's language: the agreement is rendered and stored in it. */
  locale: Locale
  /** The server's own messages in that language. */
  t: Translator
  rawData: unknown
  /** The date the form printed in the agreement (the claimant's today), YYYY-MM-DD. */
  agreementDate: unknown
  /** How the claimant signed, as sent beside the answers (drawn when left out). */
  signing: { signatureMethod: unknown; typedSignature: unknown }
  file: UploadedFile | undefined
  signer: SignerInfo
}): Promise<CreatedClaim & { agreement: SignedAgreement; claim: ClaimData }> {
  assertFormTakesClaims(config)
  const data = parseData(rawData, file)
  const signing = readSigning(rawSigning)
  // '+1 555.867.5309' and every usual writing of a US number become '(555) 867-5309' before the check
  if (typeof data.phoneNumber === 'string') data.phoneNumber = normalizePhone(data.phoneNumber)
  const check = validateOnServer({ validator: claimValidator, schema: config.schema, data })
  if (!check.isValid) {
    const [field, { __errors }] = Object.entries(check.fields)[0] ?? ['', { __errors: ['is invalid'] }]
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: `${fieldLabel(config.schema, field)}: ${__errors[0]}`,
      fields: check.fields,
    })
  }
  const claim = data as unknown as ClaimData
  const signedAt = new Date()
  // the screenshot and signature checked by their bytes, the agreement rendered, off the event loop
  const content = await checkClaimContent(templates, {
    screenshot: file!.buffer,
    signature: claim.signature,
    variant: config.agreement.template,
    locale,
    context: agreementContext({
      app: config,
      answers: claim,
      date: acceptAgreementDate(agreementDate, signedAt),
      locale,
    }),
  })
  if (!content.image) {
    throw new AppError('UPLOAD_NOT_IMAGE', {
      status: 422,
      message: `${fieldLabel(config.schema, 'screenshotFile')}: ${t(NOT_AN_IMAGE_MESSAGE)}`,
      fields: { screenshotFile: { __errors: [NOT_AN_IMAGE_MESSAGE] } },
    })
  }
  if (!content.signatureIsPng) {
    throw signatureError(fieldLabel(config.schema, 'signature'), t(SIGNATURE_REQUIRED_MESSAGE))
  }

  // the schema's pattern admits only the stored writing, '(555) 867-5309'
  const phoneNumber = claim.phoneNumber
  if (await writes.hasClaimForPhone(db, { app: config.slug, phoneNumber })) throw duplicateError()

  const { html, sha256, image } = content
  const agreement: SignedAgreement = {
    html,
    sha256,
    templateVersion: templates.version,
    signedAt: signedAt.toISOString(),
  }

  const key = await storage.save({ app: config.slug, extension: image.extension, bytes: content.screenshot })
  const createdAt = agreement.signedAt
  try {
    const id = await writes.commitClaim(db, {
      claim: {
        app: config.slug,
        created_at: createdAt,
        first_name: claim.firstName.trim(),
        last_name: claim.lastName.trim(),
        email: claim.email.trim().toLowerCase(),
        phone_number: phoneNumber,
        cash_advance_count: claim.cashAdvanceCount,
        membership_months: claim.membershipMonths,
        screenshot_key: key,
        screenshot_type: image.mime,
        locale,
      },
      record: {
        template: config.agreement.template,
        template_version: agreement.templateVersion,
        html: agreement.html,
        sha256: agreement.sha256,
        signature: claim.signature,
        signed_at: agreement.signedAt,
        ip_address: signer.ipAddress,
        user_agent: signer.userAgent,
        consent_text: config.agreement.consent,
        locale,
        signature_method: signing.method,
        typed_signature: signing.typedName ?? null,
      },
      isCopyQueued: html.trim() !== '',
      isScreenshotKept: () => storage.has(key),
    })
    return { id, createdAt, agreement, claim }
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

function duplicateError(): AppError {
  return new AppError('DUPLICATE_SUBMISSION', { status: 409, message: DUPLICATE_CLAIM_MESSAGE })
}
