import crypto from 'node:crypto'
import { decimalAmount } from './decimal-amount.ts'
import type { PayPalApi } from './paypal-api.ts'

/** PayPal takes at most this many items in one POST /v1/payments/payouts. */
export const MAX_PAYPAL_BATCH_ITEMS = 15_000
// PayPal's documented limits on the sender's own fields
const MAX_SENDER_ITEM_ID = 63
const MAX_NOTE = 4000

export interface PayPalPayoutItem {
  /** Ours, unique in the batch: what PayPal's webhooks and batch details name the item by. */
  senderItemId: string
  recipientType: 'EMAIL' | 'PHONE'
  /** The e-mail address or phone number PayPal or Venmo pays. */
  receiver: string
  amountCents: number
  /** Shown to the receiver; Venmo requires one. */
  note: string
  wallet: 'PAYPAL' | 'VENMO'
}

/** One PayPal batch as it is to be sent: a share of at most 15,000 of the items. */
export interface PayPalBatchRequest {
  senderBatchId: string
  /** PayPal-Request-Id, made from the batch's id and items, so that sending it again is the same request. */
  requestId: string
  items: PayPalPayoutItem[]
}

export interface SentPayPalBatch {
  senderBatchId: string
  payoutBatchId: string
  /** PayPal's batch_status: PENDING once the batch passed its first checks. */
  batchStatus: string
  itemCount: number
}

/**
 * PayPal's amount value for a whole number of cents.
 * @example paypalAmount(1234) // '12.34'
 */
export function paypalAmount(cents: number): string {
  return decimalAmount(cents)
}

/**
 * The items as PayPal batches of at most 15,000. One batch keeps `senderBatchId`; more are
 * `<senderBatchId>-1`, `-2`… in order. The split and the ids depend on the id and the items alone, so
 * that a batch sent again after a crash is the same request PayPal already answered.
 */
export function planPayPalBatches({
  senderBatchId,
  items,
}: {
  senderBatchId: string
  items: readonly PayPalPayoutItem[]
}): PayPalBatchRequest[] {
  const problems = itemProblems(items)
  if (!senderBatchId) problems.unshift('the sender batch id is empty')
  if (problems.length) throw new Error(`the payout cannot be sent to paypal: ${problems.join('; ')}`)
  const count = Math.ceil(items.length / MAX_PAYPAL_BATCH_ITEMS)
  return Array.from({ length: count }, (_, index) => {
    const id = count === 1 ? senderBatchId : `${senderBatchId}-${index + 1}`
    const share = items.slice(index * MAX_PAYPAL_BATCH_ITEMS, (index + 1) * MAX_PAYPAL_BATCH_ITEMS)
    return { senderBatchId: id, requestId: requestIdFor(id, share), items: share }
  })
}

/** POST /v1/payments/payouts for one planned batch. */
export async function createPayPalBatch({
  api,
  batch,
  emailSubject,
  emailMessage,
}: {
  api: PayPalApi
  batch: PayPalBatchRequest
  emailSubject: string
  emailMessage: string
}): Promise<SentPayPalBatch> {
  const body = {
    sender_batch_header: {
      sender_batch_id: batch.senderBatchId,
      email_subject: emailSubject,
      email_message: emailMessage,
    },
    items: batch.items.map((item) => ({
      recipient_type: item.recipientType,
      amount: { value: paypalAmount(item.amountCents), currency: 'USD' },
      receiver: item.receiver,
      note: item.note,
      sender_item_id: item.senderItemId,
      recipient_wallet: item.wallet,
    })),
  }
  const answer = await api.call<{ batch_header: { payout_batch_id: string; batch_status: string } }>({
    method: 'POST',
    path: '/v1/payments/payouts',
    body: JSON.stringify(body),
    requestId: batch.requestId,
  })
  return {
    senderBatchId: batch.senderBatchId,
    payoutBatchId: answer.batch_header.payout_batch_id,
    batchStatus: answer.batch_header.batch_status,
    itemCount: batch.items.length,
  }
}

/**
 * Sends the items to PayPal as as many batches as 15,000 a batch needs, one after another. It stops at
 * the first batch PayPal refuses, those before it being sent; calling again with the same id and items
 * sends the same requests, which PayPal answers with the batches it already made.
 */
export async function sendPayPalPayouts({
  api,
  senderBatchId,
  emailSubject,
  emailMessage,
  items,
}: {
  api: PayPalApi
  senderBatchId: string
  emailSubject: string
  emailMessage: string
  items: readonly PayPalPayoutItem[]
}): Promise<SentPayPalBatch[]> {
  const sent: SentPayPalBatch[] = []
  for (const batch of planPayPalBatches({ senderBatchId, items })) {
    sent.push(await createPayPalBatch({ api, batch, emailSubject, emailMessage }))
  }
  return sent
}

/** Every problem in the items, each naming its item by senderItemId (never the receiver). */
function itemProblems(items: readonly PayPalPayoutItem[]): string[] {
  const problems: string[] = []
  if (items.length === 0) problems.push('there are no items')
  const seen = new Set<string>()
  items.forEach((item, index) => {
    const name = item.senderItemId ? `item "${item.senderItemId}"` : `item ${index + 1}`
    if (!item.senderItemId) problems.push(`${name}: the sender item id is empty`)
    else if (item.senderItemId.length > MAX_SENDER_ITEM_ID)
      problems.push(`${name}: the sender item id is longer than ${MAX_SENDER_ITEM_ID} characters`)
    else if (seen.has(item.senderItemId)) problems.push(`${name}: the sender item id appears twice`)
    seen.add(item.senderItemId)
    if (!Number.isSafeInteger(item.amountCents) || item.amountCents <= 0)
      problems.push(`${name}: the amount must be a whole number of cents above 0`)
    if (!item.receiver.trim()) problems.push(`${name}: the receiver is empty`)
    if (item.wallet === 'VENMO' && !item.note.trim()) problems.push(`${name}: venmo requires a note`)
    if (item.note.length > MAX_NOTE) problems.push(`${name}: the note is longer than ${MAX_NOTE} characters`)
  })
  return problems
}

/**
 * A UUID-shaped PayPal-Request-Id from the sender batch id and the items: the same batch always sends the
 * same id, and other items under a used batch id send another, which PayPal refuses as a reused
 * sender_batch_id rather than answering with the earlier batch as if these items were paid.
 */
function requestIdFor(senderBatchId: string, items: readonly PayPalPayoutItem[]): string {
  const hash = crypto.createHash('sha256').update(`paypal-payout\n${senderBatchId}\n`)
  for (const item of items) {
    const { senderItemId, recipientType, receiver, amountCents, note, wallet } = item
    hash.update(JSON.stringify([senderItemId, recipientType, receiver, amountCents, note, wallet]))
  }
  const hex = hash.digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}
