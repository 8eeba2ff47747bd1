import { AppError } from '../../src/app-error.ts'

/**
 * Hashes running at once. Each scrypt holds 128 MiB and one of libuv's four threads, which also write
 * claims' screenshots and files: two leave the others to the claims however many sign-ins come.
 */
export const SCRYPT_AT_ONCE = 2
/** Hashes waiting behind them, a few seconds' worth; past it a sign-in is answered 503 at once. */
export const SCRYPT_WAITING = 16
/** About how long the queue takes to empty. */
export const SCRYPT_BUSY_RETRY_SECONDS = 5
export const SIGN_IN_BUSY_MESSAGE =
  'Too many sign-ins are being checked at this moment. Please wait a few seconds and try again.'

let running = 0
const waiting: (() => void)[] = []

/**
 * Runs a password hash when one of the SCRYPT_AT_ONCE places is free, in the order they came; throws
 * 503 BUSY (with Retry-After) when SCRYPT_WAITING wait already, so a flood of sign-ins (or of guesses)
 * costs the server a bounded amount of memory and threads.
 */
export async function inScryptQueue<T>(hash: () => Promise<T>): Promise<T> {
  if (running < SCRYPT_AT_ONCE) running++
  else if (waiting.length >= SCRYPT_WAITING) {
    throw new AppError('BUSY', {
      status: 503,
      message: SIGN_IN_BUSY_MESSAGE,
      headers: { 'Retry-After': String(SCRYPT_BUSY_RETRY_SECONDS) },
    })
  } else await new Promise<void>((resolve) => waiting.push(resolve))
  try {
    return await hash()
  } finally {
    // the place goes straight to the next in line, so `running` counts it still
    const next = waiting.shift()
    if (next) next()
    else running--
  }
}
