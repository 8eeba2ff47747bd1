import type { PayPalApi } from './paypal-api.ts'

/** The largest page GET /v1/payments/payouts/{id} gives. */
export const MAX_PAYPAL_PAGE_SIZE = 1000

/** Where one provider item stands for us: the money arrived, it did not, it waits for the receiver, or not yet known. */
export type PayoutItemStatus = 'paid' | 'failed' | 'unclaimed' | 'pending'

export interface PayPalItemReport {
  payoutItemId: string
  senderItemId: string
  /** PayPal's own word: SUCCESS, FAILED, UNCLAIMED, RETURNED, ONHOLD… */
  transactionStatus: string
  status: PayoutItemStatus
  errorName?: string
  errorMessage?: string
}

export interface PayPalBatchReport {
  payoutBatchId: string
  senderBatchId: string
  batchStatus: string
  items: PayPalItemReport[]
}

const STATUS_OF: Record<string, PayoutItemStatus> = {
  SUCCESS: 'paid',
  FAILED: 'failed',
  RETURNED: 'failed',
  BLOCKED: 'failed',
  REFUNDED: 'failed',
  REVERSED: 'failed',
  DENIED: 'failed',
  CANCELED: 'failed',
  UNCLAIMED: 'unclaimed',
  PENDING: 'pending',
  ONHOLD: 'pending',
  NEW: 'pending',
}

/**
 * Our status for PayPal's transaction_status. RETURNED (unclaimed for 30 days, the money came back),
 * REFUNDED and REVERSED left the claimant unpaid, so they are failures. A word PayPal adds later is
 * pending: nothing is called paid that PayPal has not called SUCCESS.
 */
export function payoutItemStatus(transactionStatus: string): PayoutItemStatus {
  return STATUS_OF[transactionStatus] ?? 'pending'
}

interface PayPalBatchPage {
  batch_header: {
    payout_batch_id: string
    batch_status: string
    sender_batch_header: { sender_batch_id: string }
  }
  items?: {
    payout_item_id: string
    transaction_status?: string
    payout_item: { sender_item_id: string }
    errors?: { name?: string; message?: string }
  }[]
  total_items?: number
  total_pages?: number
}

/** GET /v1/payments/payouts/{id}, page by page, with each item's status. */
export async function fetchPayPalBatch({
  api,
  payoutBatchId,
  pageSize = MAX_PAYPAL_PAGE_SIZE,
}: {
  api: PayPalApi
  payoutBatchId: string
  pageSize?: number
}): Promise<PayPalBatchReport> {
  const items: PayPalItemReport[] = []
  for (let page = 1; ; page++) {
    const answer = await api.call<PayPalBatchPage>({
      method: 'GET',
      path: `/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}`,
      query: { page, page_size: pageSize, total_required: true },
    })
    const pageItems = answer.items ?? []
    for (const item of pageItems) {
      // PayPal leaves transaction_status out while it has not looked at the item yet
      const transactionStatus = item.transaction_status ?? 'PENDING'
      items.push({
        payoutItemId: item.payout_item_id,
        senderItemId: item.payout_item.sender_item_id,
        transactionStatus,
        status: payoutItemStatus(transactionStatus),
        ...(item.errors?.name ? { errorName: item.errors.name } : {}),
        ...(item.errors?.message ? { errorMessage: item.errors.message } : {}),
      })
    }
    const lastPage = answer.total_pages ?? (pageItems.length < pageSize ? page : page + 1)
    if (page >= lastPage || pageItems.length === 0) {
      return {
        payoutBatchId: answer.batch_header.payout_batch_id,
        senderBatchId: answer.batch_header.sender_batch_header.sender_batch_id,
        batchStatus: answer.batch_header.batch_status,
        items,
      }
    }
  }
}
