import crypto from 'node:crypto'

/** The SHA-256 of a text or bytes, in hex. */
export function sha256Hex(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex')
}

/**
 * What the database keeps of a secret token (a link's, a session's, an invitation's): its SHA-256. The
 * tokens are random, so one round is enough: a copy of the table opens nothing and guesses nothing.
 */
export function tokenHash(token: string): string {
  return sha256Hex(token)
}
