import type { Kysely } from 'kysely'
import { DEFAULT_LOCALE, parseLocale, translator, type Locale, type Translator } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import {
  deleteAgreementLink,
  newLinkToken,
  pruneAgreementLinks,
  reserveAgreementLink,
  takeSpentAgreementLink,
} from './agreement-link.repository.ts'
import type { AgreementMailer } from './agreement-mailer.ts'
import { findOwnAgreements, type Contact } from './own-agreements.ts'

/** How long an e-mailed link works, and how long the downloads it opens last. */
export const LINK_MINUTES = 30
export const LINK_TTL_MS = LINK_MINUTES * 60_000
// a stranger who knows someone's e-mail and phone can fill their inbox only this far
const MAX_OPEN_LINKS_PER_ADDRESS = 3
const PRUNE_EVERY_MS = 5 * 60_000

export interface AgreementLinks {
  /**
   * Returns at once; then, in the background, looks for the contact's agreements and e-mails a link to
   * the stored address if there are any. The caller's answer is the same either way.
   */
  request(options: { contact: Contact; origin: string; locale: Locale }): void
  /**
   * Returns at once; then, in the background, removes the spent link `token` and sends a new one the
   * same way, to the address stored with that link: a mail app that opened the claimant's link first
   * leaves them one click from another. Nothing is sent for a link unknown, already removed or unused.
   */
  resend(options: { token: string; origin: string; locale: Locale }): void
  /** Removes the expired links and keys now and then: each holds a contact. */
  pruneNow(now?: number): Promise<void>
  /** Resolves once every request made so far is done (tests). */
  settled(): Promise<void>
}

export function createAgreementLinks({
  db,
  mailer,
  translators = () => translator(undefined),
  logger,
}: {
  db: Kysely<Database>
  mailer: AgreementMailer
  /** The e-mail is written in the page's language when it is Spanish, else in the agreement's. */
  translators?: (locale: Locale) => Translator
  logger: Logger
}): AgreementLinks {
  const pending = new Set<Promise<void>>()
  let lastPruned = -Infinity

  async function pruneNow(now = Date.now()): Promise<void> {
    if (now - lastPruned < PRUNE_EVERY_MS && now >= lastPruned) return
    lastPruned = now
    await pruneAgreementLinks(db, now)
  }

  async function sendLink({
    contact,
    origin,
    locale,
  }: {
    contact: Contact
    origin: string
    locale: Locale
  }): Promise<void> {
    const now = Date.now()
    await pruneNow(now)
    const { claims, intakes } = await findOwnAgreements(db, contact)
    const first = intakes[0] ?? claims[0]
    if (!first) return
    const token = newLinkToken()
    const limit = MAX_OPEN_LINKS_PER_ADDRESS
    if (!(await reserveAgreementLink(db, { token, contact, now, ttlMs: LINK_TTL_MS, limit }))) {
      logger.info('agreement link not sent: the address already holds unused links')
      return
    }
    const mailLocale = locale === 'es' ? locale : (parseLocale(first.locale) ?? DEFAULT_LOCALE)
    const language = mailLocale === DEFAULT_LOCALE ? '' : `?lang=${mailLocale}`
    const sent = await mailer.sendLink({
      // the address as stored with the agreement, not as typed into the form
      to: first.email,
      claimantName: `${first.firstName} ${first.lastName}`,
      // in the fragment: a browser sends it to no server, so no log or Referer ever holds it
      url: `${origin}/view-agreement${language}#link=${token}`,
      minutes: LINK_MINUTES,
      t: translators(mailLocale),
    })
    // unsent, it must not count towards the address's unused links
    if (!sent) await deleteAgreementLink(db, token)
  }

  async function resendLink({
    token,
    origin,
    locale,
  }: {
    token: string
    origin: string
    locale: Locale
  }): Promise<void> {
    const contact = await takeSpentAgreementLink(db, { token, now: Date.now() })
    if (contact) await sendLink({ contact, origin, locale })
  }

  function inBackground(job: Promise<void>): void {
    const running = job
      .catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'agreement link failed')
      })
      .finally(() => pending.delete(running))
    pending.add(running)
  }

  return {
    request(options) {
      inBackground(sendLink(options))
    },
    resend(options) {
      inBackground(resendLink(options))
    },
    pruneNow,
    async settled() {
      while (pending.size > 0) await Promise.all(pending)
    },
  }
}
