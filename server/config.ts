import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { FIRM_SETTINGS } from '../src/firm-settings.ts'
import type { SmsSettings } from './journey/sms.ts'
import type { RequireTwoFactor } from './staff/two-factor/two-factor-account.ts'
import type { S3Settings } from './uploads/s3-client.ts'
import type { PublicLimits } from './public-doors.ts'
import { readPayoutSettings, type PayoutSettings } from './payouts/payout-settings.ts'

export type { RequireTwoFactor, S3Settings }
import { passwordProblem, readPasswordHashCost } from './staff/password-hash.ts'

export interface ServerConfig {
  port: number
  /** PUBLIC_LIMIT_PER_ADDRESS and PUBLIC_LIMIT_GLOBAL: the limits every public POST passes (public-doors.ts). */
  publicLimits: PublicLimits
  /** PROOF_OF_WORK (on|off, default on): the claim, intake and lookup POSTs need a solved challenge. */
  proofOfWork: boolean
  host: string
  dataDir: string
  formsDir: string
  /** postgres://… selects PostgreSQL; unset means a SQLite file in dataDir. */
  databaseUrl: string | undefined
  /**
   * PostgreSQL only: the tables' owner, for migrations and purge-expired; the server itself then runs
   * as DATABASE_URL's role, which is granted no UPDATE, DELETE or TRUNCATE on the sealed records and
   * the ledger (server-role.ts).
   */
  databaseOwnerUrl: string | undefined
  logLevel: string
  /** smtp(s)://… sends claimants a copy of their agreement; unset writes it to dataDir/outbox as .eml. */
  smtpUrl: string | undefined
  mailFrom: string
  /**
   * ADMIN_EMAIL and ADMIN_PASSWORD: with both set, the first admin account is created from them at start
   * (first-admin.ts); else a fresh install writes a one-time set-up link to a file in DATA_DIR.
   */
  adminEmail: string | undefined
  adminPassword: string | undefined
  /** STAFF_IDLE_MINUTES (default 30): a staff session unused this long ends. */
  staffIdleTimeoutMs: number
  /** REMINDERS_PER_MINUTE (default 60): reminders e-mailed in any minute, by all server processes together. */
  remindersPerMinute: number
  /** SMS_PROVIDER=twilio and its settings: text reminders too; unset, none. */
  sms: SmsSettings | undefined
  /** REQUIRE_2FA: whose accounts must sign in with a code; default admins over https, none otherwise. */
  requireTwoFactor: RequireTwoFactor
  /** How many server processes share the port (SERVER_PROCESSES, default 1). */
  serverProcesses: number
  /** Which proxies' X-Forwarded-* headers to believe (TRUST_PROXY), in a form Express's 'trust proxy' takes. */
  trustProxy: TrustProxy
  /** The site's external origin (PUBLIC_URL, e.g. https://claims.example-firm.com); unset: each request's own. */
  publicUrl: string | undefined
  /** S3-compatible object storage for the screenshots (S3_BUCKET set); unset: files under DATA_DIR. */
  s3: S3Settings | undefined
  /** EVIDENCE_KEY, 64 hex characters; unset: DATA_DIR/evidence.key (loadEvidenceKey). */
  evidenceKey: string | undefined
  /** PAYMENTS_KEY, 64 hex characters; unset: DATA_DIR/payments.key (loadPaymentsKey). */
  paymentsKey: string | undefined
  /** PDF_SIGNING_P12: the firm's PKCS#12 file for sealing PDFs; unset: DATA_DIR/pdf-signing.p12. */
  pdfSigningP12: string | undefined
  /** PDF_SIGNING_PASSPHRASE: that file's passphrase. */
  pdfSigningPassphrase: string | undefined
  /** TSA_URL: an RFC 3161 time-stamp authority whose token vouches for each PDF seal's time; unset: none. */
  tsaUrl: string | undefined
  /**
   * WEBHOOKS_ALLOW_PRIVATE (true|false, default false): webhook endpoints may be on loopback and private
   * addresses. Unsafe: for tests with a local receiver only.
   */
  webhooksAllowPrivate: boolean
  /** PAYPAL_*, ACH_* and PAYOUT_FIRST_CHECK_NUMBER (server/payouts/payout-settings.ts). */
  payouts: PayoutSettings
}

/** A number of proxy hops, or the addresses, CIDRs and named ranges (loopback, linklocal, uniquelocal) to trust. */
export type TrustProxy = number | string[]

const MAX_SERVER_PROCESSES = 64

/** Reads the environment once. Defaults are for a developer's own machine. */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ServerConfig> {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SettingError(`PORT "${env.PORT}" is not a port number: use 0..65535`)
  }
  try {
    readPasswordHashCost(env)
  } catch (error) {
    throw new SettingError((error as Error).message)
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new SettingError(
      'DATABASE_URL must start with postgres:// (leave it unset to use SQLite in DATA_DIR)',
    )
  }
  const databaseOwnerUrl = env.DATABASE_OWNER_URL?.trim() || undefined
  if (databaseOwnerUrl && !databaseUrl) {
    throw new SettingError(
      'DATABASE_OWNER_URL needs DATABASE_URL: it names the owner of a PostgreSQL database the server uses as another role',
    )
  }
  if (databaseOwnerUrl && !/^postgres(ql)?:\/\//.test(databaseOwnerUrl)) {
    throw new SettingError('DATABASE_OWNER_URL must start with postgres://')
  }
  if (databaseOwnerUrl && !new URL(databaseUrl!).username) {
    throw new SettingError(
      "DATABASE_URL must name its user (postgres://user:password@host/db) when DATABASE_OWNER_URL is set: that user is the role the server's grants are given to",
    )
  }
  // one by default: on two cores a second process takes no more claims than one (BENCHMARKS.md); a
  // server with cores to spare can set more
  const serverProcesses = Number(env.SERVER_PROCESSES?.trim() || 1)
  if (!Number.isInteger(serverProcesses) || serverProcesses < 1 || serverProcesses > MAX_SERVER_PROCESSES) {
    throw new SettingError(
      `SERVER_PROCESSES "${env.SERVER_PROCESSES}" is not a number of processes: use 1..${MAX_SERVER_PROCESSES} (unset: 1)`,
    )
  }
  const publicUrl = readPublicUrl(env.PUBLIC_URL)
  // local-only default; a server others reach (HOST=0.0.0.0 behind a proxy) needs PUBLIC_URL, since
  // e-mailed links are built from it, else from HOST:PORT (public-origin.ts), never from a request's Host
  const host = env.HOST ?? '127.0.0.1'
  if (!publicUrl && !isLoopbackHost(host)) {
    throw new SettingError(
      `PUBLIC_URL must be set when HOST "${host}" lets other machines connect: give the origin users reach, e.g. https://claims.example-firm.com (e-mailed links are built from it), or leave HOST unset (127.0.0.1)`,
    )
  }
  return Object.freeze({
    port,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    publicUrl,
    requireTwoFactor: readRequireTwoFactor(env.REQUIRE_2FA, publicUrl),
    s3: readS3Settings(env),
    serverProcesses,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    formsDir: path.resolve(env.FORMS_DIR ?? 'forms'),
    databaseUrl,
    databaseOwnerUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    ...readFirstAdmin(env),
    staffIdleTimeoutMs: readCount(env.STAFF_IDLE_MINUTES, 'STAFF_IDLE_MINUTES', 30) * 60 * 1000,
    remindersPerMinute: readCount(env.REMINDERS_PER_MINUTE, 'REMINDERS_PER_MINUTE', 60),
    sms: readSms(env),
    evidenceKey: readEvidenceKey(env.EVIDENCE_KEY),
    paymentsKey: readHexKey(env.PAYMENTS_KEY, 'PAYMENTS_KEY'),
    publicLimits: {
      perAddress: readCount(env.PUBLIC_LIMIT_PER_ADDRESS, 'PUBLIC_LIMIT_PER_ADDRESS', DEFAULT_PER_ADDRESS),
      globalPerMinute: readCount(env.PUBLIC_LIMIT_GLOBAL, 'PUBLIC_LIMIT_GLOBAL', DEFAULT_GLOBAL_PER_MINUTE),
    },
    proofOfWork: readOnOff(env.PROOF_OF_WORK, 'PROOF_OF_WORK', true),
    pdfSigningP12: readPdfSigningP12(env.PDF_SIGNING_P12),
    pdfSigningPassphrase: env.PDF_SIGNING_PASSPHRASE || undefined,
    tsaUrl: readTsaUrl(env.TSA_URL),
    webhooksAllowPrivate: readTrueFalse(env.WEBHOOKS_ALLOW_PRIVATE, 'WEBHOOKS_ALLOW_PRIVATE'),
    payouts: readPayouts(env),
    mailFrom: env.MAIL_FROM ?? `${FIRM_SETTINGS.firmName} <${FIRM_SETTINGS.contactEmail}>`,
  })
}

/**
 * EVIDENCE_KEY: the key of the evidence seals' HMACs, 64 hex characters (openssl rand -hex 32). Unset:
 * DATA_DIR/evidence.key, made on first start.
 */
/** A claimant files a Step 2 claim per app, an intake and a lookup or two: 20 of a kind in 15 minutes is a household's, not a bot's. */
const DEFAULT_PER_ADDRESS = 20
/**
 * Over twice what one server process takes (BENCHMARKS.md): a real surge meets the server's own
 * capacity first, a flood across many addresses meets this. A firm running several processes or
 * instances raises it.
 */
const DEFAULT_GLOBAL_PER_MINUTE = 60_000

/** SMS_PROVIDER (unset or "twilio") and, with it, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, SMS_FROM, SMS_API_URL. */
function readSms(env: NodeJS.ProcessEnv): SmsSettings | undefined {
  const provider = env.SMS_PROVIDER?.trim()
  if (!provider) return undefined
  if (provider !== 'twilio') {
    throw new SettingError(
      `SMS_PROVIDER "${provider}" is not known: use "twilio" (or leave it unset for no text messages)`,
    )
  }
  const needed = (name: string) => {
    const value = env[name]?.trim()
    if (!value) throw new SettingError(`SMS_PROVIDER=twilio needs ${name}`)
    return value
  }
  const from = needed('SMS_FROM')
  if (!/^\+\d{8,15}$/.test(from)) {
    throw new SettingError(`SMS_FROM "${from}" is not a phone number in E.164 form, e.g. +13105550100`)
  }
  const apiUrl = (env.SMS_API_URL?.trim() || 'https://api.twilio.com').replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]+$/.test(apiUrl)) {
    throw new SettingError(`SMS_API_URL "${apiUrl}" is not an http(s) origin, e.g. https://api.twilio.com`)
  }
  return {
    provider,
    accountSid: needed('TWILIO_ACCOUNT_SID'),
    authToken: needed('TWILIO_AUTH_TOKEN'),
    from,
    apiUrl,
  }
}

function readPayouts(env: NodeJS.ProcessEnv): PayoutSettings {
  try {
    return readPayoutSettings(env)
  } catch (error) {
    throw new SettingError((error as Error).message)
  }
}

function readCount(value: string | undefined, name: string, fallback: number): number {
  const text = value?.trim()
  if (!text) return fallback
  const count = /^\d{1,9}$/.test(text) ? Number(text) : NaN
  if (!(count >= 1))
    throw new SettingError(
      `${name} "${value}" is not a count: use a whole number of 1 or more (unset: ${fallback})`,
    )
  return count
}

function readFirstAdmin(env: NodeJS.ProcessEnv): Pick<ServerConfig, 'adminEmail' | 'adminPassword'> {
  const adminEmail = env.ADMIN_EMAIL?.trim() || undefined
  const adminPassword = env.ADMIN_PASSWORD || undefined
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new SettingError(`ADMIN_EMAIL "${adminEmail}" is not an e-mail address`)
  }
  if (adminPassword !== undefined && adminEmail === undefined) {
    throw new SettingError('ADMIN_PASSWORD needs ADMIN_EMAIL: together they create the first admin account')
  }
  const problem = adminPassword === undefined ? undefined : passwordProblem(adminPassword)
  if (problem) throw new SettingError(`ADMIN_PASSWORD: ${problem}`)
  return { adminEmail, adminPassword }
}

/**
 * REQUIRE_2FA: all, admins or none. Unset: admins on a public https site, none otherwise, so a trial on
 * one's own machine signs in with a password alone.
 */
function readRequireTwoFactor(value: string | undefined, publicUrl: string | undefined): RequireTwoFactor {
  const fallback = publicUrl?.startsWith('https:') ? 'admins' : 'none'
  const text = value?.trim().toLowerCase()
  if (!text) return fallback
  if (text === 'all' || text === 'admins' || text === 'none') return text
  throw new SettingError(
    `REQUIRE_2FA "${value}" must be all, admins or none (unset: ${fallback}, from PUBLIC_URL)`,
  )
}

/** A setting that is true or false; unset is false. */
function readTrueFalse(value: string | undefined, name: string): boolean {
  const text = value?.trim().toLowerCase()
  if (!text) return false
  if (text === 'true' || text === 'false') return text === 'true'
  throw new SettingError(`${name} "${value}" must be true or false (unset: false)`)
}

function readOnOff(value: string | undefined, name: string, fallback: boolean): boolean {
  const text = value?.trim().toLowerCase()
  if (!text) return fallback
  if (text === 'on' || text === 'off') return text === 'on'
  throw new SettingError(`${name} "${value}" must be on or off (unset: ${fallback ? 'on' : 'off'})`)
}

function readEvidenceKey(value: string | undefined): string | undefined {
  return readHexKey(value, 'EVIDENCE_KEY')
}

/** A 32-byte key written as 64 hex characters; unset (or blank) is undefined. */
function readHexKey(value: string | undefined, name: string): string | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new SettingError(`${name} must be 64 hex characters (make one with: openssl rand -hex 32)`)
  }
  return text
}

function readPdfSigningP12(value: string | undefined): string | undefined {
  const file = value?.trim()
  if (!file) return undefined
  if (!fs.existsSync(file)) {
    throw new SettingError(
      `PDF_SIGNING_P12 "${file}" is not a file: give the path of the firm's .p12 certificate`,
    )
  }
  return path.resolve(file)
}

/** TSA_URL: the http(s) URL a time-stamp authority takes RFC 3161 requests at. */
function readTsaUrl(value: string | undefined): string | undefined {
  const text = value?.trim()
  if (!text) return undefined
  let protocol: string | undefined
  try {
    protocol = new URL(text).protocol
  } catch {
    protocol = undefined
  }
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new SettingError(
      `TSA_URL "${text}" is not an http(s) URL: give the address your time-stamp authority takes RFC 3161 requests at, e.g. https://freetsa.org/tsr (unset: no time-stamp)`,
    )
  }
  return text
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/**
 * TRUST_PROXY: a hop count ("1": the one proxy in front of us) or a comma-separated list of addresses,
 * CIDRs and Express's named ranges. Unset: loopback, right for a proxy on this machine. Express's "true"
 * (believe the left-most address) is refused: anyone could then pick the address that the rate limits
 * count and the signed record keeps.
 */
function readTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim()
  if (!text) return ['loopback']
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    if (hops <= 32) return hops
  }
  const entries = text.split(',').map((entry) => entry.trim())
  const bad = entries.find((entry) => !NAMED_RANGES.has(entry) && !isAddressOrCidr(entry))
  if (bad !== undefined) {
    throw new SettingError(
      `TRUST_PROXY "${text}" is not understood ("${bad}"): use a number of proxy hops (e.g. 1), or addresses ` +
        'and CIDRs separated by commas (e.g. 10.0.0.0/8, 192.168.1.5), or loopback, linklocal, uniquelocal',
    )
  }
  return entries
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/')
  const version = net.isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  if (!/^\d{1,3}$/.test(bits)) return false
  return Number(bits) <= (version === 4 ? 32 : 128)
}

/** Whether HOST lets only this machine connect: localhost, 127.0.0.0/8 or ::1. */
function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase()
  if (name === 'localhost') return true
  if (net.isIPv4(name)) return name.startsWith('127.')
  return net.isIPv6(name) && new URL(`http://[${name}]`).hostname === '[::1]'
}

/** PUBLIC_URL: an origin only (scheme, host, optional port), http or https; a trailing slash is forgiven. */
function readPublicUrl(value: string | undefined): string | undefined {
  const text = value?.trim()
  if (!text) return undefined
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    text.replace(/\/$/, '') !== url.origin
  ) {
    throw new SettingError(
      `PUBLIC_URL "${text}" is not an origin: give the scheme and host only, e.g. https://claims.example-firm.com`,
    )
  }
  return url.origin
}

/** S3_BUCKET set means object storage; it then needs the access key pair (no other credential source is read). */
function readS3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.S3_BUCKET?.trim()
  if (!bucket) return undefined
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim()
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim()
  if (!accessKeyId || !secretAccessKey) {
    throw new SettingError(
      'S3_BUCKET is set but S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not: set both keys',
    )
  }
  const endpoint = env.S3_ENDPOINT?.trim() || undefined
  if (endpoint) {
    let protocol: string | undefined
    try {
      protocol = new URL(endpoint).protocol
    } catch {
      protocol = undefined
    }
    if (protocol !== 'https:' && protocol !== 'http:') {
      throw new SettingError(
        `S3_ENDPOINT "${endpoint}" is not a URL: e.g. https://s3.eu-central-1.example.com`,
      )
    }
  }
  const forcePathStyle = (env.S3_FORCE_PATH_STYLE?.trim() || 'false').toLowerCase()
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') {
    throw new SettingError(`S3_FORCE_PATH_STYLE "${env.S3_FORCE_PATH_STYLE}" must be true or false`)
  }
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: forcePathStyle === 'true',
  }
}

/** A setting that cannot be used; its message names the setting and says what to give instead. */
export class SettingError extends Error {}

/** The address to print: 0.0.0.0 (or ::) means every interface, of which localhost is one. */
export function serverUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : net.isIPv6(host) ? `[${host}]` : host
  return `http://${name}:${port}`
}
