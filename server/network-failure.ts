/** Node's and the resolver's words for a peer that cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * Whether the error is the network failing to reach a store (the database, the bucket): refused,
 * reset, timed out, unresolvable. Node's happy-eyeballs connect to a name with several addresses fails
 * with an AggregateError of each address's own failure. An error's cause is left to the caller: an
 * AppError that already names the store it failed on keeps the failure as its cause.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, errors } = error as { code?: unknown; errors?: unknown }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
  return Array.isArray(errors) && errors.some(isNetworkFailure)
}
