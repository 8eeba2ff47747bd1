import crypto from 'node:crypto'
import path from 'node:path'
import { readOrMakeKeyFile } from '../private-files.ts'

/** The key file's name in DATA_DIR, made on first start when PAYMENTS_KEY is not set. */
export const PAYMENTS_KEY_FILE = 'payments.key'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
/** Written before every sealed number, so a later format (or key rotation) can tell the old ones apart. */
const VERSION = 'v1'

/**
 * The key taxpayer and bank numbers are sealed with (AES-256-GCM): PAYMENTS_KEY (64 hex characters),
 * else DATA_DIR/payments.key, written on first start with mode 0600. A key of its own, not the evidence
 * key: the evidence key is read by every seal and ledger check, this one only where a payment is made,
 * and either can be replaced without the other. Kept out of the database, so a copy of the database
 * alone holds no readable number; losing it loses every sealed number, so it is backed up apart.
 */
export function loadPaymentsKey({
  setting,
  dataDir,
}: {
  setting: string | undefined
  dataDir: string
}): Buffer {
  if (setting !== undefined) return parseKey(setting, 'PAYMENTS_KEY')
  const file = path.join(dataDir, PAYMENTS_KEY_FILE)
  return parseKey(readOrMakeKeyFile({ dataDir, name: PAYMENTS_KEY_FILE, bytes: KEY_BYTES }), file)
}

function parseKey(text: string, source: string): Buffer {
  const hex = text.trim()
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Error(`${source} must be ${KEY_BYTES * 2} hex characters (make one with: openssl rand -hex 32)`)
  }
  return Buffer.from(hex, 'hex')
}

/**
 * A number sealed for storage: 'v1.' and base64url of a random 12-byte IV, the 16-byte GCM tag and the
 * ciphertext. `purpose` ('tin', 'accountNumber', …) is authenticated with it, so a sealed number opens
 * only as what it was sealed as (an SSN copied into the account column does not open).
 * @example sealNumber({ key, value: '123-45-6789', purpose: 'tin' }) // 'v1.3q2…'
 */
export function sealNumber({ key, value, purpose }: { key: Buffer; value: string; purpose: string }): string {
  const iv = crypto.randomBytes(IV_BYTES)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(associatedData(purpose))
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()])
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`
}

/**
 * The number a sealed value holds, its tag checked first. Throws, without the number or the sealed
 * text in the message, for a value that was changed, sealed under another key or as another purpose.
 */
export function openNumber({
  key,
  sealed,
  purpose,
}: {
  key: Buffer
  sealed: string
  purpose: string
}): string {
  const [version, body = ''] = sealed.split('.', 2)
  const bytes = Buffer.from(body, 'base64url')
  if (version !== VERSION || bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== body) {
    throw new Error(`a sealed ${purpose} is not in the ${VERSION} format; the stored value was changed`)
  }
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  })
  decipher.setAAD(associatedData(purpose))
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    throw new Error(
      `a sealed ${purpose} could not be opened: it was sealed under another payments key (PAYMENTS_KEY or ${PAYMENTS_KEY_FILE}) or the stored value was changed`,
    )
  }
}

function associatedData(purpose: string): Buffer {
  return Buffer.from(`${VERSION}:${purpose}`, 'utf8')
}
