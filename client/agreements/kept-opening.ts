import { closeAgreementLink, type OpenedAgreementLink } from './api.ts'

const OPENED_KEY = 'opened-agreements'

/** The link opened in this tab less than its 30 minutes ago: a reload shows it again without the spent link. */
export function keptOpening(): OpenedAgreementLink | undefined {
  try {
    const kept = sessionStorage.getItem(OPENED_KEY)
    const opened = kept ? (JSON.parse(kept) as OpenedAgreementLink) : undefined
    if (opened && Date.parse(opened.downloadsUntil) > Date.now()) return opened
    sessionStorage.removeItem(OPENED_KEY)
  } catch {
    // nothing kept, or storage refused
  }
  return undefined
}

export function keepOpening(opened: OpenedAgreementLink): void {
  try {
    sessionStorage.setItem(OPENED_KEY, JSON.stringify(opened))
  } catch {
    // storage refused (private mode): a reload asks for a new link
  }
}

/**
 * Forgets an opened link in this tab and ends its download key on the server, so neither a reload, nor
 * Back, nor the key left behind shows the agreements again: on a shared phone the next person sees the
 * lookup form.
 */
export function endOpening(opened: OpenedAgreementLink): void {
  try {
    sessionStorage.removeItem(OPENED_KEY)
  } catch {
    // storage refused: nothing was kept
  }
  // the key lapses by itself within its 30 minutes: a close that fails leaves it to that
  void closeAgreementLink(opened.downloadKey).catch(() => undefined)
}
