import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { openCureOf, type Speaking } from './cure-claim.ts'

/**
 * The screenshot the reviewer found wanting, for the cure page: the newest one the claim had when the
 * cure began (an earlier cure's, else the claim's own). Only for a link of a cure still open; any other
 * link is refused as opening the page is (404 unknown, 410 ended).
 */
export async function refusedScreenshot(
  { db, reviews, storage }: { db: Kysely<Database>; reviews: Reviews; storage: ScreenshotStorage },
  { token, speaking, now = Date.now() }: { token: unknown; speaking: Speaking; now?: number },
): Promise<{ file: { body: Readable; size: number }; type: string; filename: string }> {
  const cure = await openCureOf(db, reviews, token, speaking, now)
  const amended = await db
    .selectFrom('claim_amendments')
    .select(['screenshot_key', 'screenshot_type'])
    .where('claim_id', '=', cure.claim_id)
    .where('screenshot_key', 'is not', null)
    .where('amended_at', '<', new Date(Number(cure.started_at)).toISOString())
    .orderBy('id', 'desc')
    .executeTakeFirst()
  const own = await db
    .selectFrom('claims')
    .select(['screenshot_key', 'screenshot_type'])
    .where('id', '=', cure.claim_id)
    .executeTakeFirstOrThrow()
  const key = amended?.screenshot_key ?? own.screenshot_key
  const type = amended?.screenshot_type ?? own.screenshot_type
  return { file: await storage.stream(key), type, filename: `screenshot.${key.split('.').pop()}` }
}
