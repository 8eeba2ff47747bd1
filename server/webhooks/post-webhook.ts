import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { hostOf, isPublicAddress, publicOnlyLookup } from './webhook-addresses.ts'

/** What one attempt got: the receiver's status, or why none came. */
export type PostOutcome = { statusCode: number } | { error: string }

/**
 * POSTs one delivery's body. node:http rather than fetch: its `lookup` lets the connection itself check
 * the address it is about to reach (publicOnlyLookup), and it never follows a redirect, which could
 * point anywhere. The attempt is cut off after `timeoutMs`, whatever the receiver is doing.
 */
export function postWebhook({
  url,
  body,
  headers,
  timeoutMs,
  allowPrivate,
}: {
  url: string
  body: string
  headers: Record<string, string>
  timeoutMs: number
  /** WEBHOOKS_ALLOW_PRIVATE (tests): any address may be reached. */
  allowPrivate: boolean
}): Promise<PostOutcome> {
  const target = new URL(url)
  const host = hostOf(target)
  // an address written in the URL is connected to without a lookup: checked here instead
  if (!allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host)) {
    return Promise.resolve({ error: `${host} is a local or private address` })
  }
  const signal = AbortSignal.timeout(timeoutMs)
  return new Promise((resolve) => {
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'claims-intake-webhooks',
      },
      // a connection of its own each time: a pooled one would skip the lookup's check
      agent: false,
      ...(allowPrivate ? {} : { lookup: publicOnlyLookup(timeoutMs) }),
      signal,
    })
    request.on('response', (response) => {
      resolve({ statusCode: response.statusCode ?? 0 })
      // the receiver's answer is not read: it is drained, or cut by the signal
      response.resume()
      response.on('error', () => undefined)
    })
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ error: signal.aborted ? `no answer within ${timeoutMs / 1000} s` : describe(error) })
    })
    request.end(body)
  })
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'WEBHOOK_PRIVATE_ADDRESS') return error.message
  if (error.code === 'ECONNREFUSED') return 'the connection was refused'
  if (error.code === 'ENOTFOUND') return 'the host was not found'
  if (error.code === 'ECONNRESET') return 'the receiver closed the connection'
  return error.code ? `${error.code}: ${error.message}` : error.message
}
