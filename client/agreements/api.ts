import type { AgreementLookup, AgreementRef, FoundAgreement } from '../../src/api/agreements.ts'
import { errorFromResponse, fetchJson, startDownload } from '../http.ts'
import { withLang } from '../i18n/locale.ts'

export type { AgreementRef, FoundAgreement }

export function agreementRef(agreement: FoundAgreement): AgreementRef {
  return agreement.kind === 'claim' ? { claimId: agreement.claimId } : { intakeId: agreement.intakeId }
}

export interface Contact {
  email: string
  phone: string
}

/** The e-mail and phone travel in the POST body, never in a URL. */
export async function lookupAgreements(
  contact: Contact,
  /** The proof of work (useProofOfWork). */
  proofHeaders: Record<string, string>,
): Promise<FoundAgreement[]> {
  const { agreements } = await fetchJson<AgreementLookup>('/api/agreements/lookup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...proofHeaders },
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
  if (!response.ok) throw await errorFromResponse(response)
  const disposition = response.headers.get('Content-Disposition') ?? ''
  // Express quotes the name only when it must: accept filename=x, filename="x" and filename*=UTF-8''x
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? `agreement.${format}`
  const url = URL.createObjectURL(await response.blob())
  startDownload({ href: url, fileName: name })
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
