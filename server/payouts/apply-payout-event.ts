import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { PayoutItemEvent } from './providers/paypal-webhook.ts'
import { recordTrustEntries } from './trust-ledger.ts'

const SENDER_ITEM_ID = /^item-(\d{1,15})$/

/**
 * What an event did: nothing (not ours, or seen before), not yet (the item's send has not committed),
 * or the item's move and its fallback check.
 */
export type AppliedPayoutEvent =
  | { outcome: 'unknown-item' | 'repeated' | 'no-change' | 'not-sent-yet' }
  | { outcome: 'moved'; itemId: number; status: string; fallbackItemId?: number }

/**
 * Applies a PayPal payout item event once (by its event id): a sent item moves to paid, failed or
 * unclaimed. A sent item that did not reach the claimant puts its net back in the trust account
 * ('returned') and gets a fallback: a paper check for the same net to the claimant's address, pending
 * in the same batch, which is due again so the send job sends it. An item that is no longer 'sent' does
 * not move back: a late SUCCEEDED after a fallback check would otherwise pay the claimant twice; it is
 * recorded on the item for staff to settle. Everything commits in one transaction.
 */
export async function applyPayoutEvent({
  db,
  evidenceKey,
  event,
  now = Date.now(),
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  event: PayoutItemEvent
  now?: number
}): Promise<AppliedPayoutEvent> {
  const match = SENDER_ITEM_ID.exec(event.senderItemId)
  if (!match) return { outcome: 'unknown-item' }
  const itemId = Number(match[1])
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx): Promise<AppliedPayoutEvent> => {
      const item = await trx
        .selectFrom('payout_items')
        .innerJoin('payout_batches', 'payout_batches.id', 'payout_items.batch_id')
        .selectAll('payout_items')
        .select('payout_batches.app')
        .where('payout_items.id', '=', itemId)
        .executeTakeFirst()
      if (!item) return { outcome: 'unknown-item' }
      // PayPal can settle an item before the send job's transaction marking it sent has committed: the
      // event is left unrecorded, and the route asks PayPal to deliver it again
      if (item.status === 'pending') return { outcome: 'not-sent-yet' }
      const inserted = await trx
        .insertInto('payout_events')
        .values({ event_id: event.eventId, item_id: itemId, event_type: event.eventType, received_at: now })
        .onConflict((oc) => oc.column('event_id').doNothing())
        .executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { outcome: 'repeated' }
      const failure = event.errorName ?? null
      if (item.status === 'unclaimed' && event.status === 'failed') {
        // unclaimed for 30 days, PayPal took the money back: its net was put back when it went unclaimed
        await trx
          .updateTable('payout_items')
          .set({ status: 'returned', failure: failure ?? item.failure, updated_at: now })
          .where('id', '=', itemId)
          .execute()
        return { outcome: 'moved', itemId, status: 'returned' }
      }
      if (item.status !== 'sent') {
        await trx
          .updateTable('payout_items')
          .set({
            failure: `PayPal later said ${event.eventType} (the item was ${item.status})`,
            updated_at: now,
          })
          .where('id', '=', itemId)
          .execute()
        return { outcome: 'no-change' }
      }
      await trx
        .updateTable('payout_items')
        .set({ status: event.status, failure, provider_item_id: event.payoutItemId, updated_at: now })
        .where('id', '=', itemId)
        .execute()
      if (event.status === 'paid') return { outcome: 'moved', itemId, status: 'paid' }
      const net = Number(item.net_cents)
      await recordTrustEntries(trx, evidenceKey, [
        {
          app: item.app,
          batch_id: Number(item.batch_id),
          claim_id: Number(item.claim_id),
          kind: 'returned',
          amount_cents: net,
          at: now,
        },
      ])
      const { id: fallbackItemId } = await trx
        .insertInto('payout_items')
        .values({
          batch_id: item.batch_id,
          claim_id: item.claim_id,
          method: 'check',
          gross_cents: item.gross_cents,
          fee_percent: item.fee_percent,
          fee_cents: item.fee_cents,
          costs_cents: item.costs_cents,
          claim_costs_cents: item.claim_costs_cents,
          batch_costs_cents: item.batch_costs_cents,
          withholding_cents: item.withholding_cents,
          net_cents: item.net_cents,
          status: 'pending',
          replaces_item_id: itemId,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await trx.updateTable('payout_batches').set({ due_at: now }).where('id', '=', item.batch_id).execute()
      return { outcome: 'moved', itemId, status: event.status, fallbackItemId: Number(fallbackItemId) }
    }),
  )
}
