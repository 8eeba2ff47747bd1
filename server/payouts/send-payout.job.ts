import type { Kysely, Selectable, Transaction } from 'kysely'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import type { Database, PayoutItemsTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { JobContext, JobOutcome, RowJobHandler } from '../jobs/job-handler.ts'
import { chunks } from '../db/id-chunks.ts'
import { errorCode, type Logger } from '../logger.ts'
import type { PayPalApi } from './providers/paypal-api.ts'
import { sendPayPalPayouts, type PayPalPayoutItem } from './providers/paypal-payouts.ts'
import { recordTrustEntries, type NewTrustEntry } from './trust-ledger.ts'

export const SEND_PAYOUT = 'send-payout'

type ItemRow = Selectable<PayoutItemsTable>

/** PayPal's and our name of an item: what its webhooks name it by. */
export function senderItemId(itemId: number): string {
  return `item-${itemId}`
}

/** Items marked sent between two writes of their trust entries (up to four entries an item). */
const MARK_SENT_PAGE = 250

/** PayPal not set up: its items wait, and the batch is looked at again this much later. */
const WAIT_FOR_PAYPAL_MS = 3600_000

/**
 * Sends an approved batch's pending items: checks numbered from the app's counter, ACH credits marked
 * sent (their NACHA file is made when downloaded), PayPal and Venmo items through PayPal's Payouts API.
 * Each item's trust entries (fee, costs, withholding, net out of the account) commit with its move to
 * sent; a fallback item (one that pays a failed item's net again) takes its net only. A PayPal failure
 * fails the attempt, and the retry policy tries again: the PayPal-Request-Id, made from the batch and
 * its items, makes PayPal answer a repeated send with the batch it already made, so it pays once.
 */
export function sendPayoutJob({
  db,
  logger,
  evidenceKey,
  paypal,
  firstCheckNumber,
  pollMs = 60_000,
}: {
  db: Kysely<Database>
  logger: Logger
  evidenceKey: Buffer
  /** PayPal's API (PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET); unset, PayPal and Venmo items wait. */
  paypal: PayPalApi | undefined
  /** PAYOUT_FIRST_CHECK_NUMBER: an app's first check. */
  firstCheckNumber: number
  pollMs?: number
}): RowJobHandler<'payout_batches'> {
  const transaction = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    retryWhileLocked(() => db.transaction().execute(work))

  const pendingItems = (batchId: number) =>
    db
      .selectFrom('payout_items')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute()

  /**
   * Marks the items sent, with the provider's fields, and records their trust entries, in `trx`: a
   * page of items at a time, so that a batch's tens of thousands of trust entries and their seals are
   * never all held at once.
   */
  const markSent = async (
    trx: Transaction<Database>,
    {
      app,
      items,
      now,
      fields,
    }: { app: string; items: ItemRow[]; now: number; fields?: (item: ItemRow) => Partial<ItemRow> },
  ) => {
    for (const page of chunks(items, MARK_SENT_PAGE)) {
      // one statement for the items that get the same fields (all of a page's ACH credits, or of one
      // PayPal batch); a check has a number of its own
      const alike = new Map<string, { changes: Partial<ItemRow>; ids: number[] }>()
      for (const item of page) {
        const changes = { status: 'sent' as const, updated_at: now, ...(fields?.(item) ?? {}) }
        const key = JSON.stringify(changes)
        const group = alike.get(key) ?? alike.set(key, { changes, ids: [] }).get(key)!
        group.ids.push(Number(item.id))
      }
      for (const { changes, ids } of alike.values()) {
        await trx
          .updateTable('payout_items')
          .set(changes)
          .where('id', 'in', ids)
          .where('status', '=', 'pending')
          .execute()
      }
      await recordTrustEntries(
        trx,
        evidenceKey,
        page.flatMap((item) => trustEntriesOf(item, app, now)),
      )
    }
  }

  const sendChecks = async (app: string, items: ItemRow[], now: number) => {
    if (items.length === 0) return
    await transaction(async (trx) => {
      const { highest } = await trx
        .selectFrom('payout_items')
        .innerJoin('payout_batches', 'payout_batches.id', 'payout_items.batch_id')
        .select((eb) => eb.fn.max('payout_items.check_number').as('highest'))
        .where('payout_batches.app', '=', app)
        .executeTakeFirstOrThrow()
      const first = highest === null ? firstCheckNumber : Math.max(Number(highest) + 1, firstCheckNumber)
      const numbers = new Map(items.map((item, index) => [Number(item.id), first + index]))
      await markSent(trx, {
        app,
        items,
        now,
        fields: (item) => ({ check_number: numbers.get(Number(item.id))! }),
      })
    })
  }

  const sendPayPal = async (ctx: JobContext<'payout_batches'>, items: ItemRow[]): Promise<boolean> => {
    if (items.length === 0) return true
    if (!paypal) return false
    const batch = ctx.row
    const choices = new Map(
      (
        await db
          .selectFrom('payout_choices')
          .select(['claim_id', 'receiver', 'receiver_type'])
          .where(
            'claim_id',
            'in',
            items.map((item) => Number(item.claim_id)),
          )
          .execute()
      ).map((choice) => [Number(choice.claim_id), choice]),
    )
    const payPalItems: PayPalPayoutItem[] = items.map((item) => {
      const choice = choices.get(Number(item.claim_id))
      return {
        senderItemId: senderItemId(Number(item.id)),
        recipientType: choice?.receiver_type === 'phone' ? 'PHONE' : 'EMAIL',
        receiver: choice?.receiver ?? '',
        amountCents: Number(item.net_cents),
        note: `Payment of your award, claim ${item.claim_id}`,
        wallet: item.method === 'venmo' ? 'VENMO' : 'PAYPAL',
      }
    })
    // the same pending items give the same id, so that a retry is the request PayPal already answered
    const sent = await sendPayPalPayouts({
      api: paypal,
      senderBatchId: `payout-${batch.id}-${items[0]!.id}`,
      emailSubject: `Your payment from ${FIRM_SETTINGS.firmName}`,
      emailMessage: `${FIRM_SETTINGS.firmName} has sent you the net of your award.`,
      items: payPalItems,
    })
    const providerBatch = new Map<string, string>()
    let offset = 0
    for (const part of sent) {
      for (const item of payPalItems.slice(offset, offset + part.itemCount)) {
        providerBatch.set(item.senderItemId, part.payoutBatchId)
      }
      offset += part.itemCount
    }
    await transaction((trx) =>
      markSent(trx, {
        app: batch.app,
        items,
        now: ctx.now,
        fields: (item) => ({ provider_batch_id: providerBatch.get(senderItemId(Number(item.id))) ?? null }),
      }),
    )
    return true
  }

  const run = async (ctx: JobContext<'payout_batches'>): Promise<JobOutcome> => {
    const batch = ctx.row
    const batchId = Number(batch.id)
    const pending = await pendingItems(batchId)
    // an award the fee and costs took whole leaves nothing to send (PayPal refuses $0.00, and with it
    // the whole PayPal batch): settled at once, its fee and costs taken out of the trust account
    const nothingToPay = pending.filter((item) => Number(item.net_cents) === 0)
    if (nothingToPay.length > 0) {
      await transaction((trx) =>
        markSent(trx, {
          app: batch.app,
          items: nothingToPay,
          now: ctx.now,
          fields: () => ({ status: 'paid' }),
        }),
      )
    }
    const items = pending.filter((item) => Number(item.net_cents) > 0)
    const byMethod = (methods: readonly string[]) => items.filter((item) => methods.includes(item.method))
    await sendChecks(batch.app, byMethod(['check']), ctx.now)
    const ach = byMethod(['ach'])
    if (ach.length > 0) {
      await transaction((trx) => markSent(trx, { app: batch.app, items: ach, now: ctx.now }))
    }
    let isPayPalSent: boolean
    try {
      isPayPalSent = await sendPayPal(ctx, byMethod(['paypal', 'venmo']))
    } catch (error) {
      logger.warn(
        { err: errorCode(error), batch: batchId, attempt: ctx.attempts, retryAt: ctx.retryAt },
        'payout batch not sent to paypal',
      )
      return 'retry'
    }
    if (!isPayPalSent) return { next: ctx.now + WAIT_FOR_PAYPAL_MS }
    let ended = false
    await transaction(async (trx) => {
      const first = batch.sent_at === null
      await trx
        .updateTable('payout_batches')
        .set({ status: 'sent', sent_at: batch.sent_at ?? ctx.now })
        .where('id', '=', batchId)
        .execute()
      if (first) {
        await writeAuditEntry(trx, evidenceKey, {
          clientAddress: 'server',
          actor: SEND_PAYOUT,
          app: batch.app,
          action: 'payout_batch_sent',
          detail: `payout batch ${batchId}: ${items.length} items sent`,
        })
      }
      ended = await ctx.end(trx, null)
      // another process took the batch over: what this one wrote is undone with the transaction
      if (!ended) throw new LeaseTaken()
    }).catch((error: unknown) => {
      if (!(error instanceof LeaseTaken)) throw error
    })
    return 'ended'
  }

  return {
    kind: SEND_PAYOUT,
    table: 'payout_batches',
    where: (eb) => eb('status', 'in', ['approved', 'sent']),
    pollMs,
    batch: 5,
    run,
  }
}

/**
 * What sending an item takes out of the trust account: its fee, costs, withholding and net, each
 * negative; a fallback only its net again, the rest having gone with the item it replaces.
 */
function trustEntriesOf(item: ItemRow, app: string, at: number): NewTrustEntry[] {
  const amounts =
    item.replaces_item_id === null
      ? ([
          ['fee', item.fee_cents],
          ['costs', item.costs_cents],
          ['withholding', item.withholding_cents],
          ['net', item.net_cents],
        ] as const)
      : ([['net', item.net_cents]] as const)
  return amounts
    .filter(([, cents]) => Number(cents) !== 0)
    .map(([kind, cents]) => ({
      app,
      batch_id: Number(item.batch_id),
      claim_id: Number(item.claim_id),
      kind,
      amount_cents: -Number(cents),
      at,
    }))
}

class LeaseTaken extends Error {}
