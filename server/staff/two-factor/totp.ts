import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import type { TwoFactorSetup } from '../../../src/api/staff-two-factor.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s. */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const
/** A code of the step before or after is taken too: a phone's clock a little off, a code typed as it turned. */
const WINDOW_STEPS = 1

/** A new random secret (160 bits, base32). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

/** What an authenticator app needs to learn the secret: the key to type, the otpauth URL and its QR code. */
export async function totpSetup(secret: string, accountEmail: string): Promise<TwoFactorSetup> {
  const otpauthUrl = totpOf(secret, accountEmail).toString()
  const qrCode = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return { secret, otpauthUrl, qrCode }
}

/** The time step the code belongs to when it is right for the secret now (±1 step), else undefined. */
export function totpCodeStep(secret: string, code: string, now = Date.now()): number | undefined {
  const totp = totpOf(secret, '')
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW_STEPS })
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta
}

/** A 6-digit code as people type it: spaces taken out. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code)
}

function totpOf(secret: string, label: string): TOTP {
  return new TOTP({
    ...TOTP_SETTINGS,
    issuer: FIRM_SETTINGS.firmName,
    label,
    secret: Secret.fromBase32(secret),
  })
}
