import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '../../../src/api/staff-two-factor.ts'
import { fetchJson } from '../../http.ts'

export type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus }

const BASE = '/api/staff/two-factor'

export function fetchTwoFactorStatus({ signal }: { signal?: AbortSignal } = {}): Promise<TwoFactorStatus> {
  return fetchJson(BASE, { signal, cache: 'no-store' })
}

/**
 * A new secret to scan; two-factor sign-in is on only once confirmTwoFactor gets its first code. Both
 * ask for the current password: a session alone cannot set it up.
 */
export function startTwoFactorSetup(password: string): Promise<TwoFactorSetup> {
  return post('/setup', { password })
}

export function confirmTwoFactor({
  code,
  password,
}: {
  code: string
  password: string
}): Promise<RecoveryCodes> {
  return post('/confirm', { code, password })
}

export function regenerateRecoveryCodes(code: string): Promise<RecoveryCodes> {
  return post('/recovery-codes', { code })
}

export async function disableTwoFactor(code: string): Promise<void> {
  await post('/disable', { code })
}

function post<T>(path: string, body: object): Promise<T> {
  return fetchJson(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  })
}
