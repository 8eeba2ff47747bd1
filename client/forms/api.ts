import { AppError } from '../../src/app-error.ts'
import type { CreatedStep2Claim } from '../../src/api/claims.ts'
import { claimRequest, SCREENSHOT_FIELD } from '../../src/api/claim-request.ts'
import { landingAttribution } from '../attribution.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { FormSignals } from '../../src/form-signals.ts'
import { errorFromBody, fetchJson } from '../http.ts'
import type { Locale } from '../../src/translate.ts'
import type { Signing } from './widgets/signing.ts'

export function fetchFormConfig(slug: string): Promise<FormConfig> {
  return fetchJson<FormConfig>(`/api/forms/${encodeURIComponent(slug)}`)
}

/**
 * Posts a claim as multipart (JSON `data` + the `screenshot` file) with XHR, because fetch cannot
 * report upload progress. How the claimant signed (`signatureMethod`, `typedSignature`) and what the
 * form saw (`signals`) travel beside the answers, never inside them. onProgress gets 0..1 as the bytes
 * leave the browser.
 */
export function submitClaim({
  slug,
  data,
  agreementDate,
  signing,
  screenshot,
  onProgress,
  headers,
  locale,
  journeyToken,
  signals,
}: {
  slug: string
  data: Record<string, unknown>
  agreementDate: string
  signing: Signing
  screenshot: File
  onProgress: (fraction: number) => void
  /** The proof of work (useProofOfWork). */
  headers: Record<string, string>
  /** The form's language, which the agreement is signed in (the page's, unless the form is not offered in it). */
  locale: Locale
  /** The token of the Step 2 link the claimant came by: the claim is tied to their intake. */
  journeyToken?: string | undefined
  /** What the form saw as it was filled in (useFormSignals). */
  signals: FormSignals
}): Promise<CreatedStep2Claim> {
  const { path, fields } = claimRequest({
    slug,
    data,
    agreementDate,
    signing,
    locale,
    journeyToken,
    attribution: landingAttribution(),
    signals,
  })
  const body = new FormData()
  for (const [name, value] of fields) body.append(name, value)
  body.append(SCREENSHOT_FIELD, screenshot, screenshot.name)
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', path)
    xhr.setRequestHeader('Accept', 'application/json')
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as CreatedStep2Claim)
      else reject(errorFromBody(xhr.status, xhr.response))
    }
    xhr.onerror = () =>
      reject(
        new AppError('INTERNAL_ERROR', { status: 0, message: 'the network failed; check your connection' }),
      )
    xhr.send(body)
  })
}
