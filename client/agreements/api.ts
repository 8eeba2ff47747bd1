import type {
  AgreementLinkSent,
  AgreementRef,
  FoundAgreement,
  IntakeAnswered,
  IntakeAnswerRequest,
  OpenedAgreementLink,
} from '../../src/api/agreements.ts'
import { errorFromResponse, fetchJson, startDownload } from '../http.ts'
import { withLang } from '../i18n/locale.ts'

export type { AgreementRef, FoundAgreement, OpenedAgreementLink }

export function agreementRef(agreement: FoundAgreement): AgreementRef {
  return agreement.kind === 'claim' ? { claimId: agreement.claimId } : { intakeId: agreement.intakeId }
}

export interface Contact {
  email: string
  phone: string
}

/**
 * Asks for a link to the claimant's agreements; the answer is the same whether or not any match. The
 * e-mail and phone travel in the POST body, never in a URL.
 */
export async function requestAgreementLink(
  contact: Contact,
  /** The proof of work (useProofOfWork). */
  proofHeaders: Record<string, string>,
): Promise<AgreementLinkSent> {
  return fetchJson<AgreementLinkSent>('/api/agreements/lookup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...proofHeaders },
    body: JSON.stringify(contact),
  })
}

/** Opens the e-mailed link (once): the agreements, and the key their downloads take. */
export async function openAgreementLink(token: string): Promise<OpenedAgreementLink> {
  return fetchJson<OpenedAgreementLink>('/api/agreements/open', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ token }),
  })
}

/**
 * Asks for a new link from a spent one: the server sends it to the address stored with that link, and
 * answers as the lookup does, whether or not it sent one.
 */
export async function resendAgreementLink(
  token: string,
  /** The proof of work (useProofOfWork), as the lookup's. */
  proofHeaders: Record<string, string>,
): Promise<AgreementLinkSent> {
  return fetchJson<AgreementLinkSent>('/api/agreements/resend', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...proofHeaders },
    body: JSON.stringify({ token }),
  })
}

/** Ends the download key on the server before its time (204 whether or not it was still valid). */
export async function closeAgreementLink(downloadKey: string): Promise<void> {
  const response = await fetch(withLang('/api/agreements/close'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: downloadKey }),
    // sent through even if the claimant leaves the page right after
    keepalive: true,
  })
  if (!response.ok) throw await errorFromResponse(response)
}

/** Fetches the signed agreement as a file and hands it to the browser's download. */
export async function downloadAgreement({
  downloadKey,
  agreement,
  format,
}: {
  downloadKey: string
  agreement: AgreementRef
  format: 'html' | 'pdf'
}): Promise<void> {
  const response = await fetch(withLang('/api/agreements/download'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: downloadKey, ...agreement, format }),
  })
  if (!response.ok) throw await errorFromResponse(response)
  const disposition = response.headers.get('Content-Disposition') ?? ''
  // the name in the claimant's letters (filename*, UTF-8) before its plain ASCII fallback (filename)
  const name =
    decodedFileName(/filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1]) ??
    /filename="?([^";]+)"?/i.exec(disposition)?.[1] ??
    `agreement.${format}`
  const url = URL.createObjectURL(await response.blob())
  startDownload({ href: url, fileName: name })
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/** A percent-encoded UTF-8 file name, decoded; undefined for none or one that does not decode. */
function decodedFileName(encoded: string | undefined): string | undefined {
  if (encoded === undefined) return undefined
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}

/** The claimant's answer for a main-form intake sent with their e-mail and phone, with the opened link's key. */
export async function answerIntake(request: IntakeAnswerRequest): Promise<IntakeAnswered> {
  return fetchJson<IntakeAnswered>('/api/agreements/intake-answer', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(request),
  })
}
