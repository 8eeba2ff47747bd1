import { PAYPAL_SANDBOX_URL } from './providers/paypal-api.ts'

/** PayPal's REST app: PAYPAL_BASE_URL, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID. */
export interface PayPalSettings {
  /** The sandbox unless PAYPAL_BASE_URL names the live API (https://api-m.paypal.com). */
  baseUrl: string
  clientId: string
  clientSecret: string
  /** The webhook's id in PayPal's dashboard; unset, no webhook delivery is believed. */
  webhookId: string | undefined
}

/** The firm's bank account as an ACH originator and the account its checks draw on. */
export interface AchSettings {
  /** ACH_ORIGIN_ROUTING: the routing number of the firm's bank (immediate destination, originating DFI). */
  originRouting: string | undefined
  /** ACH_ORIGIN_ACCOUNT: the firm's trust account number, which the positive-pay file names. */
  originAccount: string | undefined
  /** ACH_COMPANY_NAME: the name the claimants' bank statements show. */
  companyName: string | undefined
  /** ACH_COMPANY_ID: the 10-digit company id the bank assigned (often "1" and the firm's EIN). */
  companyId: string | undefined
}

export interface PayoutSettings {
  /** Unset (no PAYPAL_CLIENT_ID): PayPal and Venmo items wait, and the payouts page says so. */
  paypal: PayPalSettings | undefined
  ach: AchSettings
  /** PAYOUT_FIRST_CHECK_NUMBER (default 1001): an app's first check; later ones follow its highest. */
  firstCheckNumber: number
}

export const DEFAULT_FIRST_CHECK_NUMBER = 1001

/** The ACH settings a NACHA file needs, by name, that are not set. */
export function missingAchSettings(ach: AchSettings): string[] {
  return [
    ['ACH_ORIGIN_ROUTING', ach.originRouting],
    ['ACH_COMPANY_NAME', ach.companyName],
    ['ACH_COMPANY_ID', ach.companyId],
  ].flatMap(([name, value]) => (value ? [] : [name!]))
}

/** Reads the payout settings; a problem is thrown as a message naming the setting. */
export function readPayoutSettings(env: NodeJS.ProcessEnv): PayoutSettings {
  const text = (name: string) => env[name]?.trim() || undefined
  const clientId = text('PAYPAL_CLIENT_ID')
  const clientSecret = text('PAYPAL_CLIENT_SECRET')
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    throw new Error('PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together: set both, or neither')
  }
  const baseUrl = text('PAYPAL_BASE_URL') ?? PAYPAL_SANDBOX_URL
  if (!/^https?:\/\/[^/]+\/?$/.test(baseUrl)) {
    throw new Error(`PAYPAL_BASE_URL "${baseUrl}" is not an origin, e.g. ${PAYPAL_SANDBOX_URL}`)
  }
  const first = text('PAYOUT_FIRST_CHECK_NUMBER')
  const firstCheckNumber = first === undefined ? DEFAULT_FIRST_CHECK_NUMBER : Number(first)
  if (!/^\d{1,9}$/.test(first ?? '1') || firstCheckNumber < 1) {
    throw new Error(`PAYOUT_FIRST_CHECK_NUMBER "${first}" is not a check number: use a whole number from 1`)
  }
  const ach = {
    originRouting: text('ACH_ORIGIN_ROUTING'),
    originAccount: text('ACH_ORIGIN_ACCOUNT'),
    companyName: text('ACH_COMPANY_NAME'),
    companyId: text('ACH_COMPANY_ID'),
  }
  if (ach.companyId !== undefined && !/^\d{10}$/.test(ach.companyId)) {
    throw new Error('ACH_COMPANY_ID must be the 10 digits the bank assigned (often "1" and the firm\'s EIN)')
  }
  return {
    paypal:
      clientId && clientSecret
        ? { baseUrl, clientId, clientSecret, webhookId: text('PAYPAL_WEBHOOK_ID') }
        : undefined,
    ach,
    firstCheckNumber,
  }
}
