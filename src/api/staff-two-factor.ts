/**
 * What the two-factor endpoints answer (POST /api/staff/login's code step and /api/staff/two-factor/…).
 * @example const { recoveryCodes } = await fetchJson<RecoveryCodes>('/api/staff/two-factor/confirm', …)
 */
import type { ErrorBody } from '../app-error.ts'

/** A new TOTP secret waiting for its first code: scan `qrCode` (an SVG) or type `secret`. */
export interface TwoFactorSetup {
  /** Base32, as authenticator apps take it typed. */
  secret: string
  /** otpauth://totp/… with issuer, account, SHA1, 6 digits, 30 s. */
  otpauthUrl: string
  /** The otpauth URL as an SVG QR code, shown as a data: image. */
  qrCode: string
}

/** POST /api/staff/login's 401 for an account that must set up two-factor sign-in before any session. */
export type TwoFactorSetupRequired = ErrorBody & TwoFactorSetup

/** Ten one-time codes, shown once: the answer that turns two-factor sign-in on, or makes new codes. */
export interface RecoveryCodes {
  recoveryCodes: string[]
}

/** GET /api/staff/two-factor: the signed-in account's two-factor sign-in. */
export interface TwoFactorStatus {
  enabled: boolean
  /** REQUIRE_2FA covers the account: it may not turn two-factor sign-in off. */
  required: boolean
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number
}
