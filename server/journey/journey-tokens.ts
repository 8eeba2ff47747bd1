import crypto from 'node:crypto'

/**
 * The claimant's links that carry no stored secret: a Step 2 link's pre-fill token (which intake, which
 * app, until when) and a reminder's unsubscribe token (which intake), each signed with a key derived
 * from the evidence key. They name an intake by its id only: no personal data is in an address.
 */
export interface JourneyTokens {
  /**
   * `singleUse`: the token carries a random id, and POST /api/journey/prefill answers it once (a text
   * reminder's link, which a lost or shared phone shows to anyone). The e-mailed links stay reusable:
   * mail scanners open a link before its claimant does.
   */
  prefill(values: { intakeId: number; app: string; expiresAt: number; singleUse?: boolean }): string
  /** The intake the token names for this app, if it is signed, unexpired and for this app. */
  readPrefill(token: unknown, app: string, now?: number): number | undefined
  /** readPrefill's intake, with the token's expiry and, for a single-use token, its id. */
  readPrefillLink(token: unknown, app: string, now?: number): PrefillLink | undefined
  unsubscribe(intakeId: number): string
  readUnsubscribe(token: unknown): number | undefined
}

export interface PrefillLink {
  intakeId: number
  expiresAt: number
  singleUseId: string | undefined
}

const SIGNATURE_BYTES = 16
const SINGLE_USE_ID_BYTES = 12
const SINGLE_USE_ID = /^[0-9a-f]{24}$/
const TOKEN = /^[a-z0-9.-]{1,120}$/i

export function journeyTokens(evidenceKey: Buffer): JourneyTokens {
  const key = crypto.createHmac('sha256', evidenceKey).update('claimant journey links').digest()
  const sign = (body: string) =>
    crypto.createHmac('sha256', key).update(body).digest().subarray(0, SIGNATURE_BYTES).toString('base64url')
  const signed = (body: string) => `${body}.${sign(body)}`
  /** The token's body when its signature holds, split at its dots. */
  const open = (token: unknown, kind: string): string[] | undefined => {
    if (typeof token !== 'string') return undefined
    const cut = token.lastIndexOf('.')
    if (cut < 0) return undefined
    const body = token.slice(0, cut)
    if (!TOKEN.test(body)) return undefined
    // compared as written: base64url's last letter has spare bits, and two writings would decode alike
    const given = Buffer.from(token.slice(cut + 1))
    const expected = Buffer.from(sign(body))
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined
    const parts = body.split('.')
    return parts[0] === kind ? parts.slice(1) : undefined
  }
  const id = (text: string | undefined) =>
    text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined
  const readPrefillLink = (token: unknown, app: string, now = Date.now()): PrefillLink | undefined => {
    const [intake, forApp, until, once, ...more] = open(token, 'p') ?? []
    if (forApp !== app || !until || !/^\d{1,12}$/.test(until) || Number(until) * 1000 <= now) return undefined
    if (more.length > 0 || (once !== undefined && !SINGLE_USE_ID.test(once))) return undefined
    const intakeId = id(intake)
    return intakeId === undefined
      ? undefined
      : { intakeId, expiresAt: Number(until) * 1000, singleUseId: once }
  }
  return {
    prefill: ({ intakeId, app, expiresAt, singleUse = false }) => {
      const body = `p.${intakeId}.${app}.${Math.ceil(expiresAt / 1000)}`
      return signed(singleUse ? `${body}.${crypto.randomBytes(SINGLE_USE_ID_BYTES).toString('hex')}` : body)
    },
    readPrefill: (token, app, now) => readPrefillLink(token, app, now)?.intakeId,
    readPrefillLink,
    unsubscribe: (intakeId) => signed(`u.${intakeId}`),
    readUnsubscribe: (token) => id(open(token, 'u')?.[0]),
  }
}
