import type { Response } from 'express'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { assertCanSee } from '../staff/require-staff.ts'
import { claimNotFound } from '../lifecycle/move-claim.ts'

/** A claim's id from a staff route's `:id`; anything but up to 15 digits is a claim that does not exist. */
export function claimIdParam(param: string): number {
  if (!/^\d{1,15}$/.test(param)) throw claimNotFound(param)
  return Number(param)
}

/**
 * The claim a staff route's `:id` names, once the account may see its app: 404 for no claim, 403 for an
 * app it may not see. Checked before the body or anything else of the claim is read, so a claim the
 * account may not see is refused as such whatever else the request holds.
 */
export async function visibleClaim(
  db: Kysely<Database>,
  res: Response,
  param: string,
): Promise<{ id: number; app: string }> {
  const id = claimIdParam(param)
  const claim = await db.selectFrom('claims').select('app').where('id', '=', id).executeTakeFirst()
  if (!claim) throw claimNotFound(param)
  assertCanSee(res, claim.app)
  return { id, app: claim.app }
}
