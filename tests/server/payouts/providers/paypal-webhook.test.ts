import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paypalApi, type PayPalApi, PayPalError } from '../../../../server/payouts/providers/paypal-api.ts'
import {
  sendPayPalPayouts,
  type PayPalPayoutItem,
} from '../../../../server/payouts/providers/paypal-payouts.ts'
import {
  parsePayPalPayoutEvent,
  verifyPayPalWebhook,
  type PayoutItemEvent,
} from '../../../../server/payouts/providers/paypal-webhook.ts'
import {
  startPayPalStandIn,
  type PayPalStandIn,
  type PayPalStandInWebhook,
} from '../../support/paypal-stand-in.ts'

function makeItem(index: number, receiver: string): PayPalPayoutItem {
  return {
    senderItemId: `claim-${index}`,
    recipientType: 'EMAIL',
    receiver,
    amountCents: 2500,
    note: 'Settlement payment',
    wallet: 'PAYPAL',
  }
}

/** A receiver as the firm's webhook route will be: it verifies each delivery with PayPal, then parses it. */
async function startReceiver(api: PayPalApi, webhookId: string) {
  const accepted: PayoutItemEvent[] = []
  let refused = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      const isGenuine = await verifyPayPalWebhook({ api, webhookId, headers: req.headers, rawBody })
      if (!isGenuine) {
        refused++
        res.writeHead(400).end()
        return
      }
      const event = parsePayPalPayoutEvent(JSON.parse(rawBody))
      if (event) accepted.push(event)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/paypal`,
    accepted,
    refused: () => refused,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

describe('PayPal payout webhooks', () => {
  let standIn: PayPalStandIn
  let api: PayPalApi
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let delivered: PayPalStandInWebhook[]
  beforeAll(async () => {
    standIn = await startPayPalStandIn({ webhookId: 'WH-FIRM' })
    api = paypalApi({
      baseUrl: standIn.url,
      clientId: standIn.clientId,
      clientSecret: standIn.clientSecret,
      maxAttempts: 2,
      sleep: async () => undefined,
    })
    receiver = await startReceiver(api, 'WH-FIRM')
    standIn.webhookUrl = receiver.url
    standIn.markReceiver('unregistered@example.com', { status: 'FAILED', errorName: 'RECEIVER_UNREGISTERED' })
    standIn.markReceiver('unclaimed@example.com', { status: 'UNCLAIMED' })
    standIn.markReceiver('returned@example.com', { status: 'RETURNED' })
    standIn.markReceiver('blocked@example.com', { status: 'BLOCKED', errorName: 'RISK_DECLINE' })
    standIn.markReceiver('denied@example.com', { status: 'DENIED' })
    standIn.markReceiver('held@example.com', { status: 'ONHOLD' })
    const receivers = ['paid@example.com', 'unregistered@example.com', 'unclaimed@example.com']
    receivers.push('returned@example.com', 'blocked@example.com', 'denied@example.com', 'held@example.com')
    await sendPayPalPayouts({
      api,
      senderBatchId: 'webhook-batch',
      emailSubject: 'Your payment',
      emailMessage: 'Your payment is on its way.',
      items: receivers.map((address, index) => makeItem(index + 1, address)),
    })
    delivered = await standIn.settle()
  })
  afterAll(async () => {
    await receiver.close()
    await standIn.close()
  })

  /** One of the deliveries the stand-in made, with its transmission headers. */
  function delivery(index = 0): { headers: Record<string, string>; rawBody: string } {
    return { headers: { ...delivered[index]!.headers }, rawBody: delivered[index]!.body }
  }

  it("accepts the stand-in's signed deliveries and moves each item to paid, failed or unclaimed", () => {
    expect(delivered.map((webhook) => webhook.status)).toEqual(Array(7).fill(200))
    expect(receiver.refused()).toBe(0)
    const byItem = receiver.accepted.map(({ senderItemId, status, errorName }) => ({
      senderItemId,
      status,
      errorName,
    }))
    expect(byItem).toEqual([
      { senderItemId: 'claim-1', status: 'paid', errorName: undefined },
      { senderItemId: 'claim-2', status: 'failed', errorName: 'RECEIVER_UNREGISTERED' },
      { senderItemId: 'claim-3', status: 'unclaimed', errorName: undefined },
      { senderItemId: 'claim-4', status: 'failed', errorName: undefined },
      { senderItemId: 'claim-5', status: 'failed', errorName: 'RISK_DECLINE' },
      { senderItemId: 'claim-6', status: 'failed', errorName: undefined },
    ])
    const first = delivered[0]!.event
    expect(receiver.accepted[0]).toEqual({
      eventId: first.id,
      eventType: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED',
      senderItemId: 'claim-1',
      payoutItemId: first.resource.payout_item_id,
      status: 'paid',
    })
  })

  it('asks PayPal with every transmission header, the webhook id and the event as it came', async () => {
    const since = standIn.received.length
    const { headers, rawBody } = delivery()
    expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers, rawBody })).toBe(true)
    const [call] = standIn.received.slice(since).filter((each) => each.route === 'verify-signature')
    expect(call!.body).toEqual({
      transmission_id: headers['paypal-transmission-id'],
      transmission_time: headers['paypal-transmission-time'],
      transmission_sig: headers['paypal-transmission-sig'],
      cert_url: headers['paypal-cert-url'],
      auth_algo: 'SHA256withRSA',
      webhook_id: 'WH-FIRM',
      webhook_event: JSON.parse(rawBody),
    })
  })

  it('refuses a delivery whose event was altered after PayPal signed it', async () => {
    const { headers, rawBody } = delivery()
    const altered = rawBody.replace('"value":"25.00"', '"value":"2500.00"')
    expect(altered).not.toBe(rawBody)
    expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers, rawBody: altered })).toBe(false)
    const swapped = rawBody.replace('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', 'PAYMENT.PAYOUTS-ITEM.FAILED')
    expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers, rawBody: swapped })).toBe(false)
  })

  it('refuses a delivery signed for another webhook id, or with another signature', async () => {
    const { headers, rawBody } = delivery()
    expect(await verifyPayPalWebhook({ api, webhookId: 'WH-OTHER', headers, rawBody })).toBe(false)
    const forged = { ...headers, 'paypal-transmission-sig': delivery(1).headers['paypal-transmission-sig']! }
    expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers: forged, rawBody })).toBe(false)
  })

  it('refuses a delivery missing a transmission header, or whose body is not an object, without asking PayPal', async () => {
    const since = standIn.received.length
    const { headers, rawBody } = delivery()
    for (const header of Object.keys(headers)) {
      const { [header]: _left, ...rest } = headers
      expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers: rest, rawBody })).toBe(false)
    }
    for (const body of ['not json', '[1]', 'null']) {
      expect(await verifyPayPalWebhook({ api, webhookId: 'WH-FIRM', headers, rawBody: body })).toBe(false)
    }
    expect(standIn.received.slice(since).filter((each) => each.route === 'verify-signature')).toHaveLength(0)
  })

  it('rejects when PayPal cannot say, so that the route answers 5xx and PayPal delivers again', async () => {
    standIn.failNext({ with: 503, count: 2, route: 'verify-signature' })
    const { headers, rawBody } = delivery()
    const error: PayPalError = await verifyPayPalWebhook({
      api,
      webhookId: 'WH-FIRM',
      headers,
      rawBody,
    }).then(
      () => expect.fail('PayPal answered 503 twice'),
      (caught: PayPalError) => caught,
    )
    expect(error).toBeInstanceOf(PayPalError)
    expect(error.status).toBe(503)
  })
})

describe('a stand-in that settles each batch as it is made', () => {
  it('sends the events of a new batch in the background, each verified by the receiver', async () => {
    const standIn = await startPayPalStandIn({ settleOnCreate: true })
    const api = paypalApi({
      baseUrl: standIn.url,
      clientId: standIn.clientId,
      clientSecret: standIn.clientSecret,
    })
    const receiver = await startReceiver(api, standIn.webhookId)
    standIn.webhookUrl = receiver.url
    try {
      standIn.markReceiver('gone@example.com', { status: 'FAILED', errorName: 'RECEIVER_ACCOUNT_LOCKED' })
      await sendPayPalPayouts({
        api,
        senderBatchId: 'settled-at-once',
        emailSubject: 'Your payment',
        emailMessage: 'Your payment is on its way.',
        items: [makeItem(1, 'here@example.com'), makeItem(2, 'gone@example.com')],
      })
      await standIn.idle()
      expect(
        receiver.accepted.map(({ senderItemId, status, errorName }) => [senderItemId, status, errorName]),
      ).toEqual([
        ['claim-1', 'paid', undefined],
        ['claim-2', 'failed', 'RECEIVER_ACCOUNT_LOCKED'],
      ])
    } finally {
      await receiver.close()
      await standIn.close()
    }
  })
})

describe('parsePayPalPayoutEvent', () => {
  function makeEvent(eventType: string, resource: object = {}) {
    return {
      id: 'WH-1',
      event_type: eventType,
      resource: { payout_item_id: 'ITEM1', payout_item: { sender_item_id: 'claim-9' }, ...resource },
    }
  }

  it('reads each payout item event as paid, failed or unclaimed', () => {
    const types = ['SUCCEEDED', 'FAILED', 'UNCLAIMED', 'RETURNED', 'BLOCKED', 'DENIED']
    const statuses = types.map(
      (type) => parsePayPalPayoutEvent(makeEvent(`PAYMENT.PAYOUTS-ITEM.${type}`))?.status,
    )
    expect(statuses).toEqual(['paid', 'failed', 'unclaimed', 'failed', 'failed', 'failed'])
  })

  it("keeps PayPal's error name of a failed item", () => {
    const event = makeEvent('PAYMENT.PAYOUTS-ITEM.FAILED', { errors: { name: 'RECEIVER_UNREGISTERED' } })
    expect(parsePayPalPayoutEvent(event)).toEqual({
      eventId: 'WH-1',
      eventType: 'PAYMENT.PAYOUTS-ITEM.FAILED',
      senderItemId: 'claim-9',
      payoutItemId: 'ITEM1',
      status: 'failed',
      errorName: 'RECEIVER_UNREGISTERED',
    })
  })

  it('passes over events that change nothing for an item', () => {
    for (const type of [
      'PAYMENT.PAYOUTS-ITEM.HELD',
      'PAYMENT.PAYOUTSBATCH.SUCCESS',
      'CHECKOUT.ORDER.APPROVED',
    ]) {
      expect(parsePayPalPayoutEvent(makeEvent(type))).toBeNull()
    }
    expect(parsePayPalPayoutEvent(null)).toBeNull()
  })

  it('throws for a payout item event that does not name its item', () => {
    const event = { id: 'WH-2', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} }
    expect(() => parsePayPalPayoutEvent(event)).toThrow(
      'the paypal event "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" does not name its event id, payout item and sender item',
    )
  })
})
