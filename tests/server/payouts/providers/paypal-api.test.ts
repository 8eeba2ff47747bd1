import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  paypalApi,
  PayPalError,
  type PayPalApi,
  type PayPalApiOptions,
} from '../../../../server/payouts/providers/paypal-api.ts'
import { startPayPalStandIn, type PayPalStandIn } from '../../support/paypal-stand-in.ts'

const BATCH_CALL = { method: 'GET', path: '/v1/payments/payouts/NO-SUCH-BATCH' } as const

describe('the PayPal REST client', () => {
  let standIn: PayPalStandIn
  beforeAll(async () => {
    standIn = await startPayPalStandIn({ tokenLifetimeSeconds: 3600 })
  })
  afterAll(() => standIn.close())

  function makeApi(overrides: Partial<PayPalApiOptions> = {}): { api: PayPalApi; sleeps: number[] } {
    const sleeps: number[] = []
    const api = paypalApi({
      baseUrl: standIn.url,
      clientId: standIn.clientId,
      clientSecret: standIn.clientSecret,
      sleep: async (ms) => void sleeps.push(ms),
      ...overrides,
    })
    return { api, sleeps }
  }

  /** The calls the stand-in received from here on, by route. */
  function watch(): (route?: string) => number {
    const start = standIn.received.length
    return (route) => standIn.received.slice(start).filter((call) => !route || call.route === route).length
  }

  /** A GET that reaches PayPal: the stand-in answers 404 for a batch it does not know. */
  async function getMissingBatch(api: PayPalApi): Promise<PayPalError> {
    return api.call(BATCH_CALL).then(
      () => expect.fail('the stand-in knows no such batch'),
      (error: PayPalError) => error,
    )
  }

  it('asks for a token with Basic authentication once, and keeps it for the calls after', async () => {
    const count = watch()
    const { api } = makeApi()
    await getMissingBatch(api)
    await getMissingBatch(api)
    expect(count('token')).toBe(1)
    const tokenCall = standIn.received.findLast((call) => call.route === 'token')!
    const basic = Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')
    expect(tokenCall.headers.authorization).toBe(`Basic ${basic}`)
    expect(tokenCall.body).toBe('grant_type=client_credentials')
    const bearer = standIn.received.findLast((call) => call.route === 'get-batch')!.headers.authorization
    expect(bearer).toMatch(/^Bearer A21AA/)
  })

  it('asks for a new token five minutes before the one it has ends', async () => {
    let clock = 1_000_000
    const count = watch()
    const { api } = makeApi({ now: () => clock })
    await getMissingBatch(api)
    clock += 55 * 60_000 - 1
    await getMissingBatch(api)
    expect(count('token')).toBe(1)
    clock += 1
    await getMissingBatch(api)
    expect(count('token')).toBe(2)
  })

  it('asks for one token when several calls start together', async () => {
    const count = watch()
    const { api } = makeApi()
    await Promise.all([getMissingBatch(api), getMissingBatch(api), getMissingBatch(api)])
    expect(count('token')).toBe(1)
  })

  it('fetches a new token once when PayPal ends the one it had early', async () => {
    const count = watch()
    const { api } = makeApi()
    await getMissingBatch(api)
    standIn.expireTokens()
    const error = await getMissingBatch(api)
    expect(error.errorName).toBe('INVALID_RESOURCE_ID')
    expect(count('token')).toBe(2)
  })

  it("says PayPal's error name and message when the credentials are wrong, and does not retry", async () => {
    const count = watch()
    const { api, sleeps } = makeApi({ clientSecret: 'wrong' })
    const error = await getMissingBatch(api)
    expect(error).toBeInstanceOf(PayPalError)
    expect(error.status).toBe(401)
    expect(error.errorName).toBe('invalid_client')
    expect(error.message).toBe(
      'paypal refused POST /v1/oauth2/token (401 invalid_client): Client Authentication failed',
    )
    expect(count()).toBe(1)
    expect(sleeps).toEqual([])
  })

  it('does not retry a 404, and names the error PayPal gave', async () => {
    const count = watch()
    const { api, sleeps } = makeApi()
    const error = await getMissingBatch(api)
    expect(error.status).toBe(404)
    expect(error.message).toBe(
      'paypal refused GET /v1/payments/payouts/NO-SUCH-BATCH (404 INVALID_RESOURCE_ID): Requested resource ID was not found.',
    )
    expect(count('get-batch')).toBe(1)
    expect(sleeps).toEqual([])
  })

  it('retries a 503 and a 429 after the Retry-After PayPal names', async () => {
    const { api, sleeps } = makeApi()
    await getMissingBatch(api) // the token first, so that only the batch call fails
    const count = watch()
    standIn.failNext({ with: 503, route: 'get-batch' })
    standIn.failNext({ with: 429, route: 'get-batch' })
    const error = await getMissingBatch(api)
    expect(error.errorName).toBe('INVALID_RESOURCE_ID')
    expect(count('get-batch')).toBe(3)
    expect(sleeps).toEqual([1000, 1000])
  })

  it('retries a dropped connection, waiting 0.5, 1 and 2 s', async () => {
    const { api, sleeps } = makeApi()
    await getMissingBatch(api)
    standIn.failNext({ with: 'drop', count: 3, route: 'get-batch' })
    const error = await getMissingBatch(api)
    expect(error.errorName).toBe('INVALID_RESOURCE_ID')
    expect(sleeps).toEqual([500, 1000, 2000])
  })

  it('gives up after five tries, saying what PayPal last answered', async () => {
    const { api, sleeps } = makeApi()
    await getMissingBatch(api)
    const count = watch()
    standIn.failNext({ with: 503, count: 5, route: 'get-batch' })
    const error = await getMissingBatch(api)
    expect(error.status).toBe(503)
    expect(error.errorName).toBe('SERVICE_UNAVAILABLE')
    expect(count('get-batch')).toBe(5)
    expect(sleeps).toHaveLength(4)
  })

  it('gives up on a PayPal that cannot be reached after the tries it was given', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const { api, sleeps } = makeApi({ baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 3 })
    const error = await getMissingBatch(api)
    expect(error.status).toBe(0)
    expect(error.errorName).toBe('NETWORK_ERROR')
    expect(error.message).toBe(
      'paypal could not be reached for POST /v1/oauth2/token after 3 tries: ECONNREFUSED',
    )
    expect(sleeps).toEqual([500, 1000])
  })

  it('gives up on a try that gets no answer in time, and on a redirect, which it does not follow', async () => {
    const silent = http.createServer(() => undefined) // reads the request and never answers
    const moved = http.createServer((_req, res) =>
      res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' }).end(),
    )
    const urlOf = async (server: http.Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    }
    try {
      const quiet = makeApi({ baseUrl: await urlOf(silent), maxAttempts: 2, timeoutMs: 200 })
      const late = await getMissingBatch(quiet.api)
      expect([late.status, late.errorName, late.message]).toEqual([
        0,
        'NETWORK_ERROR',
        'paypal could not be reached for POST /v1/oauth2/token after 2 tries: no answer in time',
      ])
      expect(quiet.sleeps).toEqual([500])
      const elsewhere = await getMissingBatch(makeApi({ baseUrl: await urlOf(moved), maxAttempts: 1 }).api)
      expect([elsewhere.status, elsewhere.errorName, elsewhere.message]).toEqual([
        0,
        'NETWORK_ERROR',
        'paypal could not be reached for POST /v1/oauth2/token after 1 tries: paypal answered 302 with a redirect, which is not followed',
      ])
    } finally {
      silent.closeAllConnections()
      await new Promise((resolve) => silent.close(resolve))
      await new Promise((resolve) => moved.close(resolve))
    }
  })
})
