import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

/** The calls the stand-in answers. */
export type PayPalStandInRoute = 'token' | 'create-batch' | 'get-batch' | 'verify-signature'

/**
 * How an injected failure answers: a 503 or a 429 (with Retry-After: 1), the connection cut before the
 * call is handled, or cut after it was handled (PayPal did the work, the answer was lost).
 */
export type PayPalStandInFailure = 503 | 429 | 'drop' | 'drop-after-handling'

/** A status the stand-in gives an item when it settles, in place of SUCCESS. */
export type PayPalStandInOutcome = {
  status: 'FAILED' | 'UNCLAIMED' | 'RETURNED' | 'BLOCKED' | 'DENIED' | 'ONHOLD' | 'REFUNDED'
  /** PayPal's errors.name on the item: RECEIVER_UNREGISTERED, RECEIVER_ACCOUNT_LOCKED… */
  errorName?: string
}

export interface PayPalStandInOptions {
  /** 0, the default, takes any free port. */
  port?: number
  clientId?: string
  clientSecret?: string
  /** The webhook id verify-webhook-signature accepts. */
  webhookId?: string
  /** Where settle() POSTs its events; without one they are made and signed, not sent. */
  webhookUrl?: string
  /** expires_in of its tokens: nine hours by default, as PayPal's. */
  tokenLifetimeSeconds?: number
  /** Settle every batch as soon as it is made, its events sent in the background (see idle()). */
  settleOnCreate?: boolean
}

/** One call the stand-in received, as it came, and what it answered. */
export interface PayPalStandInRequest {
  route: PayPalStandInRoute | 'unknown'
  method: string
  path: string
  query: Record<string, string>
  headers: http.IncomingHttpHeaders
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown
  answer: number | 'dropped'
}

/** One webhook event the stand-in made: what it sent and how the receiver answered. */
export interface PayPalStandInWebhook {
  event: PayPalStandInEvent
  headers: Record<string, string>
  body: string
  /** The receiver's status; undefined when nothing was sent (no webhookUrl) or the POST failed. */
  status?: number
  error?: string
}

export interface PayPalStandInEvent {
  id: string
  event_version: string
  create_time: string
  resource_type: string
  event_type: string
  summary: string
  resource: StoredItem & { sender_batch_id: string }
}

/** A small PayPal REST API (token, Payouts, webhook verification) on 127.0.0.1, for tests and benches. */
export interface PayPalStandIn {
  url: string
  clientId: string
  clientSecret: string
  webhookId: string
  webhookUrl: string | undefined
  /** Every call received, in order. */
  readonly received: readonly PayPalStandInRequest[]
  /** Every webhook event made, in order. */
  readonly webhooks: readonly PayPalStandInWebhook[]
  /** The batches it holds, in the order they were made. */
  batches(): { payoutBatchId: string; senderBatchId: string | undefined; itemCount: number }[]
  /** The next `count` calls (to `route`, or any) fail so. */
  failNext(failure: { with: PayPalStandInFailure; count?: number; route?: PayPalStandInRoute }): void
  /** Items paid to `receiver` settle with this outcome instead of SUCCESS. */
  markReceiver(receiver: string, outcome: PayPalStandInOutcome): void
  /** Ends every token it gave, as PayPal may before expires_in. */
  expireTokens(): void
  /** Moves every PENDING item to its outcome and sends one event per item; resolves when all were answered. */
  settle(): Promise<PayPalStandInWebhook[]>
  /** Headers and body of a delivery of `event` signed as the stand-in signs its own. */
  signWebhook(event: PayPalStandInEvent): { headers: Record<string, string>; body: string }
  /** Resolves when the events settleOnCreate sends in the background were all answered. */
  idle(): Promise<void>
  close(): Promise<void>
}

/** How often, and how far apart, the stand-in delivers an event not answered 2xx. */
const WEBHOOK_ATTEMPTS = 8
const WEBHOOK_RETRY_MS = 250

interface StoredItem {
  payout_item_id: string
  transaction_id?: string
  transaction_status: string
  payout_item_fee: { currency: string; value: string }
  payout_batch_id: string
  payout_item: {
    recipient_type: string
    amount: { value: string; currency: string }
    note?: string
    receiver: string
    sender_item_id?: string
    recipient_wallet: string
  }
  time_processed?: string
  errors?: { name: string; message: string }
}

interface StoredBatch {
  payout_batch_id: string
  batch_status: string
  time_created: string
  time_completed?: string
  sender_batch_header: Record<string, unknown>
  items: StoredItem[]
}

const MAX_ITEMS = 15_000
const MAX_PAGE_SIZE = 1000
const RECIPIENT_TYPES = new Set(['EMAIL', 'PHONE', 'PAYPAL_ID', 'USER_HANDLE'])
const WALLETS = new Set(['PAYPAL', 'VENMO', 'RECIPIENT_SELECTED'])
const AMOUNT = /^(0|[1-9]\d{0,9})\.\d{2}$/
const EVENT_TYPES: Record<string, string> = {
  SUCCESS: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED',
  FAILED: 'PAYMENT.PAYOUTS-ITEM.FAILED',
  UNCLAIMED: 'PAYMENT.PAYOUTS-ITEM.UNCLAIMED',
  RETURNED: 'PAYMENT.PAYOUTS-ITEM.RETURNED',
  BLOCKED: 'PAYMENT.PAYOUTS-ITEM.BLOCKED',
  DENIED: 'PAYMENT.PAYOUTS-ITEM.DENIED',
  ONHOLD: 'PAYMENT.PAYOUTS-ITEM.HELD',
  REFUNDED: 'PAYMENT.PAYOUTS-ITEM.REFUNDED',
}

/**
 * Starts the stand-in. It checks what PayPal checks on a payout (at most 15,000 items, amounts as strings
 * with two decimals, known recipient types and wallets) and answers 400 VALIDATION_ERROR with details
 * otherwise; a repeated PayPal-Request-Id gets the first answer again. Its webhooks sign what PayPal
 * signs ("transmission id|time|webhook id|CRC-32 of the body") with an HMAC-SHA-256 under a secret of its
 * own, where PayPal uses RSA: a receiver never checks the signature itself but asks
 * verify-webhook-signature, and an HMAC keeps a settled batch of 15,000 items quick. That call says
 * SUCCESS only for an event the stand-in made, unaltered.
 */
export async function startPayPalStandIn(options: PayPalStandInOptions = {}): Promise<PayPalStandIn> {
  const secret = crypto.randomBytes(32)
  const tokenLifetime = options.tokenLifetimeSeconds ?? 32_400
  const tokens = new Map<string, number>()
  const batches = new Map<string, StoredBatch>()
  const answered = new Map<string, { status: number; body: unknown }>()
  const senderBatchIds = new Set<string>()
  const outcomes = new Map<string, PayPalStandInOutcome>()
  const failures: { with: PayPalStandInFailure; left: number; route?: PayPalStandInRoute }[] = []
  const received: PayPalStandInRequest[] = []
  const webhooks: PayPalStandInWebhook[] = []
  let background = Promise.resolve()

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const text = Buffer.concat(chunks).toString('utf8')
      const route = routeOf(req.method ?? '', url.pathname)
      const record: PayPalStandInRequest = {
        route,
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseJson(text) ?? text,
        answer: 'dropped',
      }
      received.push(record)
      const failure = route === 'unknown' ? undefined : takeFailure(route)
      if (failure === 'drop') {
        req.socket.destroy()
        return
      }
      if (failure === 503 || failure === 429) {
        record.answer = failure
        const name = failure === 429 ? 'RATE_LIMIT_REACHED' : 'SERVICE_UNAVAILABLE'
        send(
          res,
          failure,
          { name, message: 'the stand-in was told to fail this call' },
          { 'Retry-After': '1' },
        )
        return
      }
      const { status, body } = handle({ route, req, url, text })
      if (failure === 'drop-after-handling') {
        req.socket.destroy()
        return
      }
      record.answer = status
      send(res, status, body)
    })
  })

  function takeFailure(route: PayPalStandInRoute): PayPalStandInFailure | undefined {
    const failure = failures.find((each) => each.left > 0 && (!each.route || each.route === route))
    if (!failure) return undefined
    failure.left--
    return failure.with
  }

  function handle({
    route,
    req,
    url,
    text,
  }: {
    route: PayPalStandInRoute | 'unknown'
    req: http.IncomingMessage
    url: URL
    text: string
  }): { status: number; body: unknown } {
    if (route === 'unknown') return { status: 404, body: { name: 'NOT_FOUND', message: 'no such call' } }
    if (route === 'token') return issueToken(req.headers.authorization, text)
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const expiresAt = token ? tokens.get(token) : undefined
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      return {
        status: 401,
        body: { error: 'invalid_token', error_description: 'Access Token not found in cache' },
      }
    }
    if (route === 'get-batch') return showBatch(url)
    const body = parseJson(text)
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return { status: 400, body: { name: 'MALFORMED_REQUEST', message: 'the body is not a JSON object' } }
    }
    if (route === 'verify-signature') return verifySignature(body as Record<string, unknown>)
    const requestId = req.headers['paypal-request-id']
    const key = typeof requestId === 'string' ? requestId : undefined
    const earlier = key ? answered.get(key) : undefined
    if (earlier) return earlier
    const answer = createBatch(body as Record<string, unknown>)
    if (key) answered.set(key, answer)
    return answer
  }

  function issueToken(authorization: string | undefined, text: string): { status: number; body: unknown } {
    const expected = `Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}`
    if (authorization !== expected) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
      }
    }
    if (new URLSearchParams(text).get('grant_type') !== 'client_credentials') {
      return {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' },
      }
    }
    const token = `A21AA${crypto.randomBytes(24).toString('base64url')}`
    tokens.set(token, Date.now() + tokenLifetime * 1000)
    return {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/payments/payouts',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-STAND-IN',
        expires_in: tokenLifetime,
        nonce: crypto.randomUUID(),
      },
    }
  }

  function createBatch(body: Record<string, unknown>): { status: number; body: unknown } {
    const details = batchProblems(body)
    if (details.length) {
      return {
        status: 400,
        body: {
          name: 'VALIDATION_ERROR',
          message: 'Invalid request - see details',
          debug_id: crypto.randomBytes(6).toString('hex'),
          details,
        },
      }
    }
    const header = body.sender_batch_header as Record<string, unknown>
    const senderBatchId = header.sender_batch_id as string | undefined
    if (senderBatchId !== undefined && senderBatchIds.has(senderBatchId)) {
      return {
        status: 400,
        body: {
          name: 'USER_BUSINESS_ERROR',
          message: 'User business error.',
          details: [{ field: 'SENDER_BATCH_ID', issue: 'Batch with given sender_batch_id already exists' }],
        },
      }
    }
    if (senderBatchId !== undefined) senderBatchIds.add(senderBatchId)
    const payoutBatchId = payPalId()
    const batch: StoredBatch = {
      payout_batch_id: payoutBatchId,
      batch_status: 'PENDING',
      time_created: new Date().toISOString(),
      sender_batch_header: header,
      items: (body.items as StoredItem['payout_item'][]).map((item) => ({
        payout_item_id: payPalId(),
        transaction_status: 'PENDING',
        payout_item_fee: { currency: item.amount.currency, value: '0.00' },
        payout_batch_id: payoutBatchId,
        payout_item: { ...item, recipient_wallet: item.recipient_wallet ?? 'PAYPAL' },
      })),
    }
    batches.set(payoutBatchId, batch)
    if (options.settleOnCreate) {
      const events = settleItems()
      background = background.then(() => deliver(events).then(() => undefined))
    }
    return {
      status: 201,
      body: {
        batch_header: {
          payout_batch_id: payoutBatchId,
          batch_status: batch.batch_status,
          sender_batch_header: header,
        },
        links: [{ href: `${standIn.url}/v1/payments/payouts/${payoutBatchId}`, rel: 'self', method: 'GET' }],
      },
    }
  }

  function showBatch(url: URL): { status: number; body: unknown } {
    const id = decodeURIComponent(url.pathname.slice('/v1/payments/payouts/'.length))
    const batch = batches.get(id)
    if (!batch) {
      return {
        status: 404,
        body: { name: 'INVALID_RESOURCE_ID', message: 'Requested resource ID was not found.' },
      }
    }
    const page = Number(url.searchParams.get('page') ?? '1')
    const pageSize = Number(url.searchParams.get('page_size') ?? String(MAX_PAGE_SIZE))
    const details = [
      ...(Number.isInteger(page) && page >= 1 ? [] : [{ field: 'page', issue: 'must be 1 or more' }]),
      ...(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_PAGE_SIZE
        ? []
        : [{ field: 'page_size', issue: `must be from 1 to ${MAX_PAGE_SIZE}` }]),
    ]
    if (details.length) {
      return {
        status: 400,
        body: { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details },
      }
    }
    const { items, ...header } = batch
    const cents = items.reduce((sum, item) => sum + centsOf(item.payout_item.amount.value), 0)
    const totalRequired = url.searchParams.get('total_required') === 'true'
    return {
      status: 200,
      body: {
        batch_header: { ...header, amount: { currency: 'USD', value: amountOf(cents) } },
        items: items.slice((page - 1) * pageSize, page * pageSize),
        ...(totalRequired
          ? { total_items: items.length, total_pages: Math.ceil(items.length / pageSize) }
          : {}),
        links: [],
      },
    }
  }

  function verifySignature(body: Record<string, unknown>): { status: number; body: unknown } {
    const names = [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ]
    const missing = names.filter((name) => typeof body[name] !== 'string' || !body[name])
    if (!body.webhook_event || typeof body.webhook_event !== 'object') missing.push('webhook_event')
    if (missing.length) {
      const details = missing.map((field) => ({ field, issue: 'is required' }))
      return {
        status: 400,
        body: { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details },
      }
    }
    const signed = signedText({
      transmissionId: body.transmission_id as string,
      transmissionTime: body.transmission_time as string,
      webhookId: body.webhook_id as string,
      body: JSON.stringify(body.webhook_event),
    })
    const isGenuine =
      body.webhook_id === standIn.webhookId &&
      body.auth_algo === 'SHA256withRSA' &&
      body.cert_url === certUrl() &&
      isSameText(body.transmission_sig as string, signatureOf(secret, signed))
    return { status: 200, body: { verification_status: isGenuine ? 'SUCCESS' : 'FAILURE' } }
  }

  function settleItems(): PayPalStandInEvent[] {
    const events: PayPalStandInEvent[] = []
    for (const batch of batches.values()) {
      for (const item of batch.items) {
        if (item.transaction_status !== 'PENDING') continue
        const outcome = outcomes.get(item.payout_item.receiver)
        item.transaction_status = outcome?.status ?? 'SUCCESS'
        item.time_processed = new Date().toISOString()
        if (item.transaction_status === 'SUCCESS') item.transaction_id = payPalId(17)
        if (outcome?.errorName) {
          item.errors = { name: outcome.errorName, message: `the stand-in was told: ${outcome.errorName}` }
        }
        events.push({
          id: `WH-${payPalId(17)}`,
          event_version: '1.0',
          create_time: item.time_processed,
          resource_type: 'payouts_item',
          event_type: EVENT_TYPES[item.transaction_status]!,
          summary: `Payout item ${item.transaction_status.toLowerCase()}`,
          resource: { ...item, sender_batch_id: String(batch.sender_batch_header.sender_batch_id ?? '') },
        })
      }
      batch.batch_status = 'SUCCESS'
      batch.time_completed ??= new Date().toISOString()
    }
    return events
  }

  async function deliver(events: PayPalStandInEvent[]): Promise<PayPalStandInWebhook[]> {
    const made: PayPalStandInWebhook[] = []
    for (const event of events) {
      const webhook: PayPalStandInWebhook = { event, ...standIn.signWebhook(event) }
      webhooks.push(webhook)
      made.push(webhook)
      if (!standIn.webhookUrl) continue
      // PayPal delivers an event again while it is not answered 2xx (up to 25 times over 3 days); the
      // stand-in tries a few times within seconds
      for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
        try {
          const response = await fetch(standIn.webhookUrl, {
            method: 'POST',
            headers: { ...webhook.headers, 'Content-Type': 'application/json' },
            body: webhook.body,
          })
          await response.body?.cancel()
          webhook.status = response.status
          webhook.error = undefined
          if (response.ok) break
        } catch (error) {
          webhook.error = (error as Error).message
        }
        await new Promise((resolve) => setTimeout(resolve, WEBHOOK_RETRY_MS * attempt))
      }
    }
    return made
  }

  function certUrl(): string {
    return `${standIn.url}/v1/notifications/certs/CERT-STAND-IN`
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const standIn: PayPalStandIn = {
    url: `http://127.0.0.1:${port}`,
    clientId: options.clientId ?? 'stand-in-client',
    clientSecret: options.clientSecret ?? 'stand-in-secret',
    webhookId: options.webhookId ?? 'WH-STAND-IN',
    webhookUrl: options.webhookUrl,
    received,
    webhooks,
    batches: () =>
      [...batches.values()].map((batch) => ({
        payoutBatchId: batch.payout_batch_id,
        senderBatchId: batch.sender_batch_header.sender_batch_id as string | undefined,
        itemCount: batch.items.length,
      })),
    failNext({ with: failure, count = 1, route }) {
      failures.push({ with: failure, left: count, ...(route ? { route } : {}) })
    },
    markReceiver(receiver, outcome) {
      outcomes.set(receiver, outcome)
    },
    expireTokens() {
      tokens.clear()
    },
    async settle() {
      await background
      return deliver(settleItems())
    },
    signWebhook(event) {
      const body = JSON.stringify(event)
      const transmissionId = crypto.randomUUID()
      const transmissionTime = new Date().toISOString()
      const signature = signatureOf(
        secret,
        signedText({ transmissionId, transmissionTime, webhookId: standIn.webhookId, body }),
      )
      return {
        body,
        headers: {
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': transmissionTime,
          'paypal-transmission-sig': signature,
          'paypal-cert-url': certUrl(),
          'paypal-auth-algo': 'SHA256withRSA',
        },
      }
    },
    idle: () => background,
    close: async () => {
      await background
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      })
    },
  }
  return standIn
}

function routeOf(method: string, path: string): PayPalStandInRoute | 'unknown' {
  if (method === 'POST' && path === '/v1/oauth2/token') return 'token'
  if (method === 'POST' && path === '/v1/payments/payouts') return 'create-batch'
  if (method === 'GET' && /^\/v1\/payments\/payouts\/[^/]+$/.test(path)) return 'get-batch'
  if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return 'verify-signature'
  return 'unknown'
}

/** What PayPal signs: transmission id, time, webhook id and the CRC-32 of the body, joined by "|". */
function signedText(parts: {
  transmissionId: string
  transmissionTime: string
  webhookId: string
  body: string
}) {
  return `${parts.transmissionId}|${parts.transmissionTime}|${parts.webhookId}|${zlib.crc32(parts.body)}`
}

function signatureOf(secret: Buffer, text: string): string {
  return crypto.createHmac('sha256', secret).update(text).digest('base64')
}

function isSameText(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}

/** Each way a create-batch body breaks PayPal's rules, as PayPal's details name them. */
function batchProblems(body: Record<string, unknown>): { field: string; location: string; issue: string }[] {
  const problems: { field: string; location: string; issue: string }[] = []
  const problem = (field: string, issue: string) => problems.push({ field, location: 'body', issue })
  const header = body.sender_batch_header as Record<string, unknown> | undefined
  if (typeof header !== 'object' || header === null) problem('sender_batch_header', 'is required')
  else {
    if (header.sender_batch_id !== undefined && !isText(header.sender_batch_id, 256))
      problem('sender_batch_header.sender_batch_id', 'must be a string of at most 256 characters')
    if (header.email_subject !== undefined && !isText(header.email_subject, 255))
      problem('sender_batch_header.email_subject', 'must be a string of at most 255 characters')
    if (header.email_message !== undefined && !isText(header.email_message, 1000))
      problem('sender_batch_header.email_message', 'must be a string of at most 1000 characters')
  }
  const items = body.items
  if (!Array.isArray(items) || items.length === 0) {
    problem('items', 'must hold at least 1 item')
    return problems
  }
  if (items.length > MAX_ITEMS) problem('items', `must hold at most ${MAX_ITEMS} items`)
  items.forEach((item: Record<string, unknown> | null, index) => {
    const at = (field: string) => `items[${index}].${field}`
    if (typeof item !== 'object' || item === null) {
      problem(`items[${index}]`, 'must be an object')
      return
    }
    if (!RECIPIENT_TYPES.has(item.recipient_type as string))
      problem(at('recipient_type'), `must be one of ${[...RECIPIENT_TYPES].join(', ')}`)
    const wallet = item.recipient_wallet ?? 'PAYPAL'
    if (!WALLETS.has(wallet as string))
      problem(at('recipient_wallet'), `must be one of ${[...WALLETS].join(', ')}`)
    const amount = item.amount as { value?: unknown; currency?: unknown } | undefined
    if (typeof amount?.value !== 'string' || !AMOUNT.test(amount.value))
      problem(at('amount.value'), 'must be a string amount with two decimal places')
    else if (centsOf(amount.value) === 0) problem(at('amount.value'), 'must be more than 0.00')
    if (amount?.currency !== 'USD') problem(at('amount.currency'), 'must be USD')
    if (!isText(item.receiver, 127) || !item.receiver) problem(at('receiver'), 'is required')
    else if (item.recipient_type === 'EMAIL' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(item.receiver))
      problem(at('receiver'), 'must be an e-mail address')
    else if (item.recipient_type === 'PHONE' && !/^\+?[\d\s().-]{7,20}$/.test(item.receiver))
      problem(at('receiver'), 'must be a phone number')
    if (item.sender_item_id !== undefined && !isText(item.sender_item_id, 63))
      problem(at('sender_item_id'), 'must be a string of at most 63 characters')
    if (item.note !== undefined && !isText(item.note, 4000))
      problem(at('note'), 'must be a string of at most 4000 characters')
    if (wallet === 'VENMO' && !item.note) problem(at('note'), 'is required for the VENMO wallet')
  })
  return problems
}

function isText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength
}

function centsOf(value: string): number {
  const [whole = '0', fraction = '00'] = value.split('.')
  return Number(whole) * 100 + Number(fraction)
}

function amountOf(cents: number): string {
  const digits = String(cents).padStart(3, '0')
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/** An id in PayPal's style: upper-case letters and digits. */
function payPalId(length = 13): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  return Array.from(crypto.randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('')
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(body))
}
