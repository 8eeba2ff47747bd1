import crypto from 'node:crypto'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { Expired } from './purge-verdicts.ts'

/**
 * Splits expired records into those whose screenshot still has the SHA-256 their seal covers and
 * those kept, one problem line each (claim id and key only). A file that differs, or cannot be read,
 * is evidence that someone changed the store: the purge keeps it together with its claim, because the
 * claim's sealed hash is what shows the file differs, and a file without its row is an orphan the next
 * start-up would remove.
 */
export async function checkSealedScreenshots(
  storage: ScreenshotStorage,
  expired: Expired[],
): Promise<{ matching: Expired[]; problems: string[] }> {
  const matching: Expired[] = []
  const problems: string[] = []
  for (const record of expired) {
    const { screenshotKey: key, screenshotSha256: sealed } = record
    if (key === undefined) {
      matching.push(record)
      continue
    }
    const name = `${record.kind} ${record.id}: screenshot ${key}`
    let hash: string
    try {
      hash = await sha256Of(storage, key)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      problems.push(
        `${name} cannot be read (${typeof code === 'string' ? code : 'error'}); kept with its claim`,
      )
      continue
    }
    if (hash === sealed) matching.push(record)
    else problems.push(`${name} does not match its sealed hash; kept with its claim`)
  }
  return { matching, problems }
}

/** The hash of the bytes as the store gives them (the S3 object as read, not its ETag). */
async function sha256Of(storage: ScreenshotStorage, key: string): Promise<string> {
  const { body } = await storage.stream(key)
  const hash = crypto.createHash('sha256')
  for await (const chunk of body) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
