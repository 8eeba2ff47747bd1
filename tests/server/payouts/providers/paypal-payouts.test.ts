import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  paypalApi,
  type PayPalApi,
  type PayPalError,
} from '../../../../server/payouts/providers/paypal-api.ts'
import {
  fetchPayPalBatch,
  payoutItemStatus,
} from '../../../../server/payouts/providers/paypal-batch-status.ts'
import {
  MAX_PAYPAL_BATCH_ITEMS,
  paypalAmount,
  planPayPalBatches,
  sendPayPalPayouts,
  type PayPalPayoutItem,
} from '../../../../server/payouts/providers/paypal-payouts.ts'
import { startPayPalStandIn, type PayPalStandIn } from '../../support/paypal-stand-in.ts'

const EMAIL = {
  emailSubject: 'Your settlement payment',
  emailMessage: 'Your share of the award is on its way.',
}

function makeItem(index: number, overrides: Partial<PayPalPayoutItem> = {}): PayPalPayoutItem {
  return {
    senderItemId: `claim-${index}`,
    recipientType: 'EMAIL',
    receiver: `claimant${index}@example.com`,
    amountCents: 1000 + index,
    note: 'Settlement payment',
    wallet: 'PAYPAL',
    ...overrides,
  }
}

let batchNumber = 0
/** A sender batch id this stand-in has not seen: PayPal refuses one used before. */
function nextBatchId(): string {
  return `payout-${++batchNumber}`
}

describe('paypalAmount', () => {
  it('writes cents as a PayPal amount with two decimals', () => {
    expect([1234, 5, 100, 0, 100000].map(paypalAmount)).toEqual(['12.34', '0.05', '1.00', '0.00', '1000.00'])
  })

  it('keeps every digit of an amount too large for a float to hold in dollars', () => {
    expect(paypalAmount(900719925474099)).toBe('9007199254740.99')
  })

  it('refuses a fraction of a cent and a negative amount', () => {
    expect(() => paypalAmount(12.5)).toThrow(
      'an amount must be a whole, non-negative number of cents, not 12.5',
    )
    expect(() => paypalAmount(-1)).toThrow('not -1')
  })
})

describe('payoutItemStatus', () => {
  it("maps PayPal's transaction statuses to paid, failed, unclaimed and pending", () => {
    const statuses = ['SUCCESS', 'FAILED', 'UNCLAIMED', 'PENDING', 'RETURNED', 'BLOCKED', 'ONHOLD']
    const more = ['REFUNDED', 'DENIED', 'REVERSED', 'SOMETHING_NEW']
    expect(
      Object.fromEntries([...statuses, ...more].map((status) => [status, payoutItemStatus(status)])),
    ).toEqual({
      SUCCESS: 'paid',
      FAILED: 'failed',
      UNCLAIMED: 'unclaimed',
      PENDING: 'pending',
      RETURNED: 'failed',
      BLOCKED: 'failed',
      ONHOLD: 'pending',
      REFUNDED: 'failed',
      DENIED: 'failed',
      REVERSED: 'failed',
      SOMETHING_NEW: 'pending',
    })
  })
})

describe('planPayPalBatches', () => {
  it('lists every bad item by its sender item id, never by its receiver', () => {
    const items = [
      makeItem(1, { amountCents: 0 }),
      makeItem(2, { amountCents: 10.5 }),
      makeItem(3, { wallet: 'VENMO', recipientType: 'PHONE', receiver: '4085550100', note: ' ' }),
      makeItem(4, { receiver: '' }),
      makeItem(5, { senderItemId: 'claim-1' }),
    ]
    expect(() => planPayPalBatches({ senderBatchId: 'payout-x', items })).toThrow(
      'the payout cannot be sent to paypal: item "claim-1": the amount must be a whole number of cents above 0; ' +
        'item "claim-2": the amount must be a whole number of cents above 0; item "claim-3": venmo requires a note; ' +
        'item "claim-4": the receiver is empty; item "claim-1": the sender item id appears twice',
    )
  })

  it('refuses an empty payout', () => {
    expect(() => planPayPalBatches({ senderBatchId: 'payout-x', items: [] })).toThrow('there are no items')
  })

  it('gives the same batch the same PayPal-Request-Id every time, and another id or other items another', () => {
    const items = [makeItem(1)]
    const requestId = (senderBatchId: string, batchItems: PayPalPayoutItem[]) =>
      planPayPalBatches({ senderBatchId, items: batchItems })[0]!.requestId
    const first = requestId('payout-x', items)
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(requestId('payout-x', [makeItem(1)])).toBe(first)
    expect(requestId('payout-y', items)).not.toBe(first)
    expect(requestId('payout-x', [makeItem(1, { amountCents: 1002 })])).not.toBe(first)
  })
})

describe('sending payouts to PayPal', () => {
  let standIn: PayPalStandIn
  let api: PayPalApi
  const sleeps: number[] = []
  beforeAll(async () => {
    standIn = await startPayPalStandIn()
    api = paypalApi({
      baseUrl: standIn.url,
      clientId: standIn.clientId,
      clientSecret: standIn.clientSecret,
      sleep: async (ms) => void sleeps.push(ms),
    })
  })
  afterAll(() => standIn.close())

  function createCalls(since: number) {
    return standIn.received.slice(since).filter((call) => call.route === 'create-batch')
  }

  it('sends the batch header and each item as PayPal documents them, amounts from cents', async () => {
    const since = standIn.received.length
    const senderBatchId = nextBatchId()
    const items = [
      makeItem(1, { amountCents: 1234 }),
      makeItem(2, { amountCents: 5, wallet: 'VENMO', recipientType: 'PHONE', receiver: '+1 408-555-0100' }),
    ]
    const sent = await sendPayPalPayouts({ api, senderBatchId, items, ...EMAIL })
    expect(sent).toEqual([
      {
        senderBatchId,
        payoutBatchId: expect.stringMatching(/^[A-Z0-9]{13}$/),
        batchStatus: 'PENDING',
        itemCount: 2,
      },
    ])
    const [call] = createCalls(since)
    expect(call!.answer).toBe(201)
    expect(call!.headers['paypal-request-id']).toBe(planPayPalBatches({ senderBatchId, items })[0]!.requestId)
    expect(call!.body).toEqual({
      sender_batch_header: { sender_batch_id: senderBatchId, ...snake(EMAIL) },
      items: [
        {
          recipient_type: 'EMAIL',
          amount: { value: '12.34', currency: 'USD' },
          receiver: 'claimant1@example.com',
          note: 'Settlement payment',
          sender_item_id: 'claim-1',
          recipient_wallet: 'PAYPAL',
        },
        {
          recipient_type: 'PHONE',
          amount: { value: '0.05', currency: 'USD' },
          receiver: '+1 408-555-0100',
          note: 'Settlement payment',
          sender_item_id: 'claim-2',
          recipient_wallet: 'VENMO',
        },
      ],
    })
  })

  it('splits 15,001 items into a batch of 15,000 and a batch of 1, each with its own sender batch id', async () => {
    const since = standIn.received.length
    const senderBatchId = nextBatchId()
    const items = Array.from({ length: MAX_PAYPAL_BATCH_ITEMS + 1 }, (_, index) => makeItem(index))
    const sent = await sendPayPalPayouts({ api, senderBatchId, items, ...EMAIL })
    expect(sent.map(({ senderBatchId: id, itemCount }) => [id, itemCount])).toEqual([
      [`${senderBatchId}-1`, 15_000],
      [`${senderBatchId}-2`, 1],
    ])
    const calls = createCalls(since)
    expect(calls.map((call) => call.answer)).toEqual([201, 201])
    expect(new Set(calls.map((call) => call.headers['paypal-request-id'])).size).toBe(2)
    const last = (calls[1]!.body as { items: { sender_item_id: string }[] }).items
    expect(last.map((item) => item.sender_item_id)).toEqual(['claim-15000'])
  })

  it("surfaces PayPal's VALIDATION_ERROR and its details for a batch of more than 15,000, without retrying", async () => {
    const since = standIn.received.length
    sleeps.length = 0
    const items = Array.from({ length: MAX_PAYPAL_BATCH_ITEMS + 1 }, (_, index) => ({
      recipient_type: 'EMAIL',
      amount: { value: '1.00', currency: 'USD' },
      receiver: `claimant${index}@example.com`,
      sender_item_id: `claim-${index}`,
    }))
    const error = await refusal(
      api.call({
        method: 'POST',
        path: '/v1/payments/payouts',
        body: JSON.stringify({ sender_batch_header: { sender_batch_id: nextBatchId() }, items }),
      }),
    )
    expect(error.status).toBe(400)
    expect(error.errorName).toBe('VALIDATION_ERROR')
    expect(error.message).toBe(
      'paypal refused POST /v1/payments/payouts (400 VALIDATION_ERROR): Invalid request - see details ' +
        '(items: must hold at most 15000 items)',
    )
    expect(createCalls(since)).toHaveLength(1)
    expect(sleeps).toEqual([])
  })

  it('is refused by PayPal for an amount without two decimals or an unknown wallet', async () => {
    const body = {
      sender_batch_header: { sender_batch_id: nextBatchId() },
      items: [
        { recipient_type: 'EMAIL', amount: { value: '12.3', currency: 'USD' }, receiver: 'a@example.com' },
        { recipient_type: 'FAX', amount: { value: 12.3, currency: 'USD' }, receiver: 'b@example.com' },
        {
          ...{ recipient_type: 'EMAIL', recipient_wallet: 'ZELLE' },
          amount: { value: '1.00', currency: 'USD' },
        },
      ],
    }
    const error = await refusal(
      api.call({ method: 'POST', path: '/v1/payments/payouts', body: JSON.stringify(body) }),
    )
    expect(error.details.map((detail) => detail.field)).toEqual([
      'items[0].amount.value',
      'items[1].recipient_type',
      'items[1].amount.value',
      'items[2].recipient_wallet',
      'items[2].receiver',
    ])
  })

  it('pays once when the answer to the first try was lost: the retry carries the same PayPal-Request-Id', async () => {
    const since = standIn.received.length
    const before = standIn.batches().length
    standIn.failNext({ with: 'drop-after-handling', route: 'create-batch' })
    const senderBatchId = nextBatchId()
    const [sent] = await sendPayPalPayouts({ api, senderBatchId, items: [makeItem(1)], ...EMAIL })
    const calls = createCalls(since)
    expect(calls.map((call) => call.answer)).toEqual(['dropped', 201])
    expect(calls[1]!.headers['paypal-request-id']).toBe(calls[0]!.headers['paypal-request-id'])
    expect(standIn.batches().slice(before)).toEqual([
      { payoutBatchId: sent!.payoutBatchId, senderBatchId, itemCount: 1 },
    ])
  })

  it('answers a payout sent again after a crash with the batches PayPal already made', async () => {
    const senderBatchId = nextBatchId()
    const items = [makeItem(1), makeItem(2)]
    const first = await sendPayPalPayouts({ api, senderBatchId, items, ...EMAIL })
    const before = standIn.batches().length
    const again = await sendPayPalPayouts({ api, senderBatchId, items, ...EMAIL })
    expect(again).toEqual(first)
    expect(standIn.batches()).toHaveLength(before)
  })

  it('retries a 503 on the create call and makes the batch once', async () => {
    const since = standIn.received.length
    const before = standIn.batches().length
    standIn.failNext({ with: 503, count: 2, route: 'create-batch' })
    await sendPayPalPayouts({ api, senderBatchId: nextBatchId(), items: [makeItem(1)], ...EMAIL })
    expect(createCalls(since).map((call) => call.answer)).toEqual([503, 503, 201])
    expect(standIn.batches()).toHaveLength(before + 1)
  })

  it("names PayPal's refusal of a sender batch id used before", async () => {
    const senderBatchId = nextBatchId()
    await sendPayPalPayouts({ api, senderBatchId, items: [makeItem(1)], ...EMAIL })
    const error = await refusal(sendPayPalPayouts({ api, senderBatchId, items: [makeItem(2)], ...EMAIL }))
    expect(error.errorName).toBe('USER_BUSINESS_ERROR')
    expect(error.message).toContain('SENDER_BATCH_ID: Batch with given sender_batch_id already exists')
  })

  it("reads every item's status page by page: paid, failed with PayPal's reason, unclaimed, pending", async () => {
    standIn.markReceiver('unregistered@example.com', { status: 'FAILED', errorName: 'RECEIVER_UNREGISTERED' })
    standIn.markReceiver('nobody-yet@example.com', { status: 'UNCLAIMED' })
    standIn.markReceiver('held@example.com', { status: 'ONHOLD' })
    const items = [
      makeItem(1),
      makeItem(2, { receiver: 'unregistered@example.com' }),
      makeItem(3),
      makeItem(4, { receiver: 'nobody-yet@example.com' }),
      makeItem(5),
      makeItem(6, { receiver: 'held@example.com' }),
      makeItem(7),
    ]
    const [sent] = await sendPayPalPayouts({ api, senderBatchId: nextBatchId(), items, ...EMAIL })
    const payoutBatchId = sent!.payoutBatchId
    const waiting = await fetchPayPalBatch({ api, payoutBatchId, pageSize: 3 })
    expect(waiting.batchStatus).toBe('PENDING')
    expect(waiting.items.map((item) => item.status)).toEqual(Array(7).fill('pending'))

    await standIn.settle()
    const since = standIn.received.length
    const report = await fetchPayPalBatch({ api, payoutBatchId, pageSize: 3 })
    const gets = standIn.received.slice(since).filter((call) => call.route === 'get-batch')
    expect(gets.map((call) => call.query)).toEqual(
      [1, 2, 3].map((page) => ({ page: String(page), page_size: '3', total_required: 'true' })),
    )
    expect(report.batchStatus).toBe('SUCCESS')
    expect(
      report.items.map(({ senderItemId, transactionStatus, status, errorName }) => ({
        senderItemId,
        transactionStatus,
        status,
        errorName,
      })),
    ).toEqual([
      { senderItemId: 'claim-1', transactionStatus: 'SUCCESS', status: 'paid', errorName: undefined },
      {
        senderItemId: 'claim-2',
        transactionStatus: 'FAILED',
        status: 'failed',
        errorName: 'RECEIVER_UNREGISTERED',
      },
      { senderItemId: 'claim-3', transactionStatus: 'SUCCESS', status: 'paid', errorName: undefined },
      { senderItemId: 'claim-4', transactionStatus: 'UNCLAIMED', status: 'unclaimed', errorName: undefined },
      { senderItemId: 'claim-5', transactionStatus: 'SUCCESS', status: 'paid', errorName: undefined },
      { senderItemId: 'claim-6', transactionStatus: 'ONHOLD', status: 'pending', errorName: undefined },
      { senderItemId: 'claim-7', transactionStatus: 'SUCCESS', status: 'paid', errorName: undefined },
    ])
    expect(new Set(report.items.map((item) => item.payoutItemId)).size).toBe(7)
  })
})

/** The error a call PayPal refuses rejects with. */
async function refusal(call: Promise<unknown>): Promise<PayPalError> {
  return call.then(
    () => expect.fail('paypal should have refused the call'),
    (error: PayPalError) => error,
  )
}

function snake({ emailSubject, emailMessage }: typeof EMAIL) {
  return { email_subject: emailSubject, email_message: emailMessage }
}
