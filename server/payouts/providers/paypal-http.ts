import http from 'node:http'
import https from 'node:https'

/** What PayPal answered one try: its status, its headers, and its body read whole (a few kilobytes). */
export interface PayPalAnswer {
  status: number
  header(name: string): string | undefined
  text: string
}

/**
 * One request to PayPal, through node:http(s) and its kept-alive connections rather than fetch: a
 * surge of webhooks asks PayPal to verify each one, and fetch's streams, Headers and Request objects
 * left several times this call's memory each time for the garbage collector. A redirect is refused
 * (rejects), since a call goes to PayPal or nowhere; the try, its answer included, is cut off after
 * `timeoutMs` (rejects with the signal's TimeoutError). Rejects with the socket's error when no answer
 * came.
 */
export function requestPayPal({
  url,
  method,
  headers,
  body,
  timeoutMs,
}: {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
}): Promise<PayPalAnswer> {
  const target = new URL(url)
  const signal = AbortSignal.timeout(timeoutMs)
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(signal.aborted ? signal.reason : error)
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
      },
      signal,
    })
    request.on('error', fail)
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400) {
        response.destroy()
        fail(new Error(`paypal answered ${status} with a redirect, which is not followed`))
        return
      }
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', fail)
      response.on('end', () => {
        const header = (name: string) => {
          const value = response.headers[name.toLowerCase()]
          return Array.isArray(value) ? value.join(', ') : value
        }
        resolve({ status, header, text: Buffer.concat(chunks).toString('utf8') })
      })
    })
    request.end(body)
  })
}
