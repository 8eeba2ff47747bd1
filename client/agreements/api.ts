import { fetchJson } from '../forms/api.ts'
import { AppError } from '../../src/app-error.ts'
import { withLang } from '../i18n/locale.ts'
import type { SigningMethod } from '../../src/signing.ts'

interface FoundAgreementBase {
  /** The app, or on the main form the apps chosen, that the agreement names. */
  appName: string
  signedAt: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  /** Drawn on the pad, or typed: then typedSignature is the full name as typed. */
  signatureMethod: SigningMethod
  typedSignature: string | null
  html: string
}

/** A Step 2 claim's agreement, or the one signed on the main form with the intake. */
export type FoundAgreement =
  | (FoundAgreementBase & {
      kind: 'claim'
      claimId: number
      app: string
      cashAdvanceCount: number
      membershipMonths: number
    })
  | (FoundAgreementBase & { kind: 'intake'; intakeId: number })

/** Which signed agreement a download asks for. */
export type AgreementRef = { claimId: number } | { intakeId: number }

export function agreementRef(agreement: FoundAgreement): AgreementRef {
  return agreement.kind === 'claim' ? { claimId: agreement.claimId } : { intakeId: agreement.intakeId }
}

export interface Contact {
  email: string
  phone: string
}

/** The e-mail and phone travel in the POST body, never in a URL. */
export async function lookupAgreements(contact: Contact): Promise<FoundAgreement[]> {
  const { agreements } = await fetchJson<{ agreements: FoundAgreement[] }>('/api/agreements/lookup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(contact),
  })
  return agreements
}

/** Fetches the signed agreement as a file and hands it to the browser's download. */
export async function downloadAgreement({
  contact,
  agreement,
  format,
}: {
  contact: Contact
  agreement: AgreementRef
  format: 'html' | 'pdf'
}): Promise<void> {
  const response = await fetch(withLang('/api/agreements/download'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...contact, ...agreement, format }),
  })
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      { error?: { message?: string } } | undefined
    throw new AppError('INTERNAL_ERROR', {
      status: response.status,
      message: body?.error?.message ?? `the server answered ${response.status}`,
    })
  }
  const disposition = response.headers.get('Content-Disposition') ?? ''
  // Express quotes the name only when it must: accept filename=x, filename="x" and filename*=UTF-8''x
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? `agreement.${format}`
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
