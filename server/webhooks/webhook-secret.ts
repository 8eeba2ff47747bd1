import crypto from 'node:crypto'

const SECRET_PREFIX = 'whsec_'

/**
 * The endpoints' signing secrets. The server must sign with each secret for as long as the endpoint
 * lives, so it cannot keep only a hash; rather than store the secret (in clear, or sealed under one more
 * key file to back up), it keeps a random salt per endpoint and derives the secret from the salt and the
 * evidence key. The evidence key is already kept out of the database and backed up apart from it, so a
 * copy of the database alone holds no secret, and there is nothing to seal, unseal or migrate.
 */
export interface WebhookSecrets {
  /** A new endpoint's salt (stored) and secret (shown once). */
  make(): { salt: string; secret: string }
  secretOf(salt: string): string
}

export function webhookSecrets(evidenceKey: Buffer): WebhookSecrets {
  const key = crypto.createHmac('sha256', evidenceKey).update('webhook endpoint secrets').digest()
  const secretOf = (salt: string) =>
    SECRET_PREFIX + crypto.createHmac('sha256', key).update(salt).digest('base64url')
  return {
    make() {
      const salt = crypto.randomBytes(16).toString('base64url')
      return { salt, secret: secretOf(salt) }
    },
    secretOf,
  }
}

/** Webhook-Signature's value: `v1=` and the hex HMAC-SHA-256 of "<timestamp>.<body>" under the secret. */
export function webhookSignature({
  secret,
  timestamp,
  body,
}: {
  secret: string
  timestamp: number
  body: string
}): string {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}
