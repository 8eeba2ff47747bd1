import type { Kysely } from 'kysely'
import { type JourneyConfig, type Step2Link } from '../../src/journey-config.ts'
import { isFormOpen } from '../../src/form-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { journeyIntake } from './journey-mails.ts'
import { journeyTokens, type JourneyTokens } from './journey-tokens.ts'
import { START_WORDS, STOP_WORDS, type SmsSender } from './sms.ts'
import { normalizePhone } from '../../src/phone.ts'
import { hitRateLimit } from '../rate-limit.ts'
import { TEXT_REPLY_LIMIT } from './opt-out-limits.ts'
import { DAY_MS } from '../../src/durations.ts'

/**
 * The claimant's way from the main form to every Step 2 claim: the links that pre-fill each Step 2
 * form, the apps still without a claim, and the claimant's answers to the mails (unsubscribe, a text's
 * STOP). The mails themselves are the send-reminder job's (send-reminder.job.ts).
 */
export interface ClaimantJourney {
  tokens: JourneyTokens
  /** Each of these apps with an open Step 2 form, its link pre-filling the form for this intake. */
  step2Links(values: {
    intakeId: number
    apps: string[]
    locale: Locale
    now?: number
    /** Links that pre-fill their form once (a text's; journey-tokens.ts). */
    singleUse?: boolean
  }): Step2Link[]
  /** The chosen apps of an intake that still have no Step 2 claim, with their links. */
  pendingSteps(intakeId: number, now?: number): Promise<Step2Link[]>
  /** The chosen apps of an intake without a Step 2 claim of the same claimant. */
  missingApps(intake: { id: number; cash_advance_apps: string }): Promise<string[]>
  /** Puts the intake's address on the suppression list; false for a token that names no intake. */
  unsubscribe(token: unknown, source: 'link' | 'one-click'): Promise<boolean>
  /**
   * A reply to a text reminder, as the SMS provider's webhook posts it: STOP (and its synonyms) puts
   * the phone on the SMS suppression list, START takes it off; 'unsigned' when the webhook's signature
   * is not the provider's (or no SMS provider is set).
   */
  textReply(reply: {
    url: string
    fields: Record<string, string>
    signature: string | undefined
  }): Promise<'stopped' | 'started' | 'ignored' | 'unsigned'>
}

export function createClaimantJourney({
  db,
  config,
  languages,
  evidenceKey,
  sms,
}: {
  db: Kysely<Database>
  config: JourneyConfig
  languages: Languages
  /** The links' tokens are signed with a key derived from it. */
  evidenceKey: Buffer
  /** SMS_PROVIDER: whose signature a text reply must carry. */
  sms?: SmsSender | undefined
}): ClaimantJourney {
  const tokens = journeyTokens(evidenceKey)

  const step2Links: ClaimantJourney['step2Links'] = ({
    intakeId,
    apps,
    locale,
    now = Date.now(),
    singleUse = false,
  }) => {
    const forms = languages.forms(locale)
    const expiresAt = now + config.linkDays * DAY_MS
    return apps.flatMap((app) => {
      const form = forms.get(app)
      if (!form || !isFormOpen(form)) return []
      const lang = languages.formLocale(app, locale) === DEFAULT_LOCALE ? '' : `?lang=${locale}`
      const token = tokens.prefill({ intakeId, app, expiresAt, singleUse })
      return [{ app, appName: form.displayName, path: `/${app}${lang}#prefill=${token}` }]
    })
  }

  const missingApps: ClaimantJourney['missingApps'] = async (intake: {
    id: number
    cash_advance_apps: string
  }) => {
    const done = await db
      .selectFrom('claims')
      .select('app')
      .where('intake_id', '=', Number(intake.id))
      .execute()
    const filed = new Set(done.map((claim) => claim.app))
    return (JSON.parse(intake.cash_advance_apps) as string[]).filter((app) => !filed.has(app))
  }

  const pendingSteps: ClaimantJourney['pendingSteps'] = async (intakeId, now = Date.now()) => {
    const intake = await journeyIntake(db, intakeId)
    if (!intake) return []
    const locale = parseLocale(intake.locale) ?? DEFAULT_LOCALE
    return step2Links({ intakeId, apps: await missingApps(intake), locale, now })
  }

  const textReply: ClaimantJourney['textReply'] = async ({ url, fields, signature }) => {
    if (!sms || !sms.isSigned(url, fields, signature)) return 'unsigned'
    const word = (fields.Body ?? '').trim().toUpperCase()
    // "+18085550100" as the forms store it, "(808) 555-0100"
    const phone = normalizePhone(fields.From ?? '')
    if (!/^\(\d{3}\) \d{3}-\d{4}$/.test(phone)) return 'ignored'
    const isStop = STOP_WORDS.includes(word)
    if (!isStop && !START_WORDS.includes(word)) return 'ignored'
    // Twilio's inbound webhook names no time of sending, so replies count in the order they arrive; its
    // message id is honoured once, so a replayed START cannot undo a STOP that arrived after it
    const messageSid = fields.MessageSid ?? fields.SmsMessageSid
    // a START without an id could be a replay; a STOP without one is still an opt-out
    if (!messageSid && !isStop) return 'ignored'
    if (!(await hitRateLimit(db, { rule: TEXT_REPLY_LIMIT, client: phone })).allowed) {
      // past its number's limit a reply is dropped, except a STOP for a phone still texted: one read,
      // and one write the first time only, so an opt-out is never lost to the limit
      if (!isStop) return 'ignored'
      const stopped = await db
        .selectFrom('sms_suppressions')
        .select('phone')
        .where('phone', '=', phone)
        .executeTakeFirst()
      if (stopped) return 'ignored'
      await db
        .insertInto('sms_suppressions')
        .values({ phone, created_at: Date.now() })
        .onConflict((conflict) => conflict.column('phone').doNothing())
        .execute()
      return 'stopped'
    }
    return db.transaction().execute(async (trx) => {
      if (messageSid) {
        const fresh = await trx
          .insertInto('sms_replies')
          .values({ message_sid: messageSid, phone, created_at: Date.now() })
          .onConflict((conflict) => conflict.column('message_sid').doNothing())
          .returning('message_sid')
          .executeTakeFirst()
        if (!fresh) return 'ignored'
      }
      if (isStop) {
        await trx
          .insertInto('sms_suppressions')
          .values({ phone, created_at: Date.now() })
          .onConflict((conflict) => conflict.column('phone').doNothing())
          .execute()
        return 'stopped'
      }
      await trx.deleteFrom('sms_suppressions').where('phone', '=', phone).execute()
      return 'started'
    })
  }

  const unsubscribe: ClaimantJourney['unsubscribe'] = async (token, source) => {
    const intakeId = tokens.readUnsubscribe(token)
    if (intakeId === undefined) return false
    const intake = await journeyIntake(db, intakeId)
    if (!intake) return false
    await db
      .insertInto('email_suppressions')
      .values({ email: intake.email, created_at: Date.now(), source })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute()
    return true
  }

  return {
    tokens,
    step2Links,
    pendingSteps,
    missingApps,
    unsubscribe,
    textReply,
  }
}
