import { vi } from 'vitest'

/**
 * Runs `file` with the server's clock at `date` (it goes on from there): what it files is sealed as
 * signed then, as a claim really signed then was. Only Date is faked; timers run as they do.
 */
export async function signedAt<T>(date: string, file: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(date), shouldAdvanceTime: true })
  try {
    return await file()
  } finally {
    vi.useRealTimers()
  }
}

/** Now, `years` years ago, as ISO text. */
export function yearsAgo(years: number): string {
  const date = new Date()
  date.setUTCFullYear(date.getUTCFullYear() - years)
  return date.toISOString()
}
