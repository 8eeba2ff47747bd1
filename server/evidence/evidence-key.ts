import crypto from 'node:crypto'
import path from 'node:path'
import { readOrMakeKeyFile } from '../private-files.ts'

/** The key file's name in DATA_DIR, made on first start when EVIDENCE_KEY is not set. */
export const EVIDENCE_KEY_FILE = 'evidence.key'
const KEY_BYTES = 32

/**
 * The key every seal's and ledger entry's HMAC-SHA-256 is made with. It is kept out of the database,
 * so whoever can write the database cannot make a changed record's seal verify again: EVIDENCE_KEY (64
 * hex characters), else DATA_DIR/evidence.key, written on first start with mode 0600. Losing it loses
 * the proof of every seal made with it: it is backed up apart from the database.
 */
export function loadEvidenceKey({
  setting,
  dataDir,
}: {
  setting: string | undefined
  dataDir: string
}): Buffer {
  if (setting !== undefined) return parseKey(setting, 'EVIDENCE_KEY')
  const file = path.join(dataDir, EVIDENCE_KEY_FILE)
  return parseKey(readOrMakeKeyFile({ dataDir, name: EVIDENCE_KEY_FILE, bytes: KEY_BYTES }), file)
}

function parseKey(text: string, source: string): Buffer {
  const hex = text.trim()
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Error(`${source} must be ${KEY_BYTES * 2} hex characters (${KEY_BYTES} random bytes)`)
  }
  return Buffer.from(hex, 'hex')
}

/** HMAC-SHA-256 of a hex digest under the evidence key, as hex. */
export function keyedDigest(key: Buffer, digest: string): string {
  return crypto.createHmac('sha256', key).update(digest, 'utf8').digest('hex')
}
