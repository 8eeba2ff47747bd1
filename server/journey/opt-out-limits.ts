import type { RateLimitRule } from '../rate-limit.ts'

const ONE_MINUTE = 60 * 1000

/*
 * Opt-outs pass outside the public per-address limit (the SMS provider and mail providers post from few
 * addresses), so each has a limit of its own, per what it is signed for. 30 a minute is far above what
 * one person sends (a STOP or START now and then, a button pressed twice, a provider retrying a
 * delivery) and bounds what a looping phone, a replayed signed request or a scanner clicking one link
 * over and over can write to the database to one row each time it passes.
 */

/** Signed STOP/START replies per phone number (the reply's From). */
export const TEXT_REPLY_LIMIT: RateLimitRule = {
  name: 'text-reply',
  limit: 30,
  windowMs: ONE_MINUTE,
  message: '',
}

/** Unsubscribes per signed token (one a reminder's address, so one per intake). */
export const UNSUBSCRIBE_TOKEN_LIMIT: RateLimitRule = {
  name: 'unsubscribe-token',
  limit: 30,
  windowMs: ONE_MINUTE,
  message: '',
}
