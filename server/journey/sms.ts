import crypto from 'node:crypto'

/** SMS_PROVIDER=twilio and its settings (config.ts): where the text reminders go. */
export interface SmsSettings {
  provider: 'twilio'
  accountSid: string
  authToken: string
  /** The sending number, E.164 ("+13105550100"). */
  from: string
  /** The provider's API origin (SMS_API_URL): Twilio's by default, a stand-in in tests. */
  apiUrl: string
}

/** Sends one text message; rejects when the provider refuses it. */
export interface SmsSender {
  send(message: { to: string; body: string }): Promise<void>
  /** Whether a webhook's X-Twilio-Signature is the provider's for this URL and these fields. */
  isSigned(url: string, fields: Record<string, string>, signature: string | undefined): boolean
}

// a provider that does not answer must not hold the reminders' loop
const TIMEOUT_MS = 10_000

/**
 * Twilio's Messages API (and any service that speaks it): a form-encoded POST with Basic
 * authentication. Its webhooks are signed with HMAC-SHA1 of the URL and the sorted fields under the
 * auth token, which isSigned checks.
 */
export function twilioSms(settings: SmsSettings): SmsSender {
  const auth = Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')
  return {
    async send({ to, body }) {
      const response = await fetch(
        `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
        {
          method: 'POST',
          headers: { Authorization: `Basic ${auth}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: to, From: settings.from, Body: body }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
      )
      // the answer names the number: only its status is kept
      await response.body?.cancel()
      if (!response.ok)
        throw Object.assign(new Error('the SMS provider refused the message'), {
          code: `HTTP_${response.status}`,
        })
    },
    isSigned(url, fields, signature) {
      if (!signature) return false
      const signed = Object.keys(fields)
        .sort()
        .reduce((text, key) => text + key + fields[key], url)
      const expected = crypto.createHmac('sha1', settings.authToken).update(signed).digest('base64')
      const given = Buffer.from(signature)
      return (
        given.length === Buffer.from(expected).length && crypto.timingSafeEqual(given, Buffer.from(expected))
      )
    },
  }
}

/** A stored US phone, "(808) 555-0100", as E.164: "+18085550100". */
export function e164(phone: string): string {
  return `+1${phone.replace(/\D/g, '').slice(-10)}`
}

/** Replies that stop text messages, and those that start them again (the carriers' standard words). */
export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']
export const START_WORDS = ['START', 'UNSTOP', 'YES']
