import dns from 'node:dns'
import net from 'node:net'
import { AppError } from '../../src/app-error.ts'
import { MAX_WEBHOOK_URL_LENGTH } from '../../src/api/webhooks.ts'

/**
 * Addresses a webhook must not reach: the server's own machine and networks (loopback, private,
 * link-local, CGNAT, unspecified), and the ranges no public receiver has (multicast, reserved,
 * benchmarking). An endpoint is an admin's URL the server then POSTs to: without this list, it would
 * reach a database, a cloud's metadata service or an admin page behind the firewall.
 */
const NOT_PUBLIC = new net.BlockList()
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4')
}
// ::/96 holds the unspecified and loopback addresses and the IPv4-compatible ones; ::ffff:0:0/96 (IPv4
// written as IPv6) is checked against the IPv4 ranges by BlockList itself
for (const [address, prefix] of [
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6')
}
/** NAT64 (RFC 6052): the last 32 bits are an IPv4 address the gateway connects to. */
const NAT64 = /^64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})$/

/** Whether an IP address (v4 or v6) is one a public receiver may have. */
export function isPublicAddress(address: string): boolean {
  const version = net.isIP(address)
  if (version === 0) return false // fail-closed
  if (version === 4) return !NOT_PUBLIC.check(address, 'ipv4')
  const normal = new URL(`http://[${address}]`).hostname.slice(1, -1)
  const nat64 = NAT64.exec(normal)
  if (nat64) {
    const high = parseInt(nat64[1]!, 16)
    const low = parseInt(nat64[2]!, 16)
    return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`)
  }
  return !NOT_PUBLIC.check(normal, 'ipv6')
}

/**
 * An endpoint URL as an admin typed it, checked: http(s), no user name or password, a host, and unless
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE, tests) every address its host resolves to a public one. Each
 * refusal is a 400 that says what to give instead. The delivery checks the address again when it
 * connects (publicOnlyLookup): a name may resolve elsewhere by then.
 */
export async function checkWebhookUrl(text: unknown, allowPrivate: boolean): Promise<string> {
  if (typeof text !== 'string' || text.trim() === '') throw badUrl('give the URL the events are posted to')
  const trimmed = text.trim()
  if (trimmed.length > MAX_WEBHOOK_URL_LENGTH) {
    throw badUrl(`the URL is over ${MAX_WEBHOOK_URL_LENGTH} characters`)
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw badUrl(`"${trimmed}" is not a URL: give one such as https://crm.example.com/hooks/claims`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw badUrl(`"${url.protocol}" URLs are not posted to: give an https:// (or http://) URL`)
  }
  if (url.username || url.password) {
    throw badUrl(
      'the URL holds a user name or password: use a URL without them (the secret signs each delivery)',
    )
  }
  if (url.hash) throw badUrl('the URL has a #fragment, which is never sent: leave it out')
  if (!allowPrivate) {
    const host = hostOf(url)
    const addresses = net.isIP(host) ? [host] : await resolve(host)
    const local = addresses.find((address) => !isPublicAddress(address))
    if (local !== undefined) {
      throw badUrl(
        `the host "${host}" resolves to ${local}, a local or private address: give a URL the internet reaches`,
      )
    }
  }
  return url.href
}

/** The URL's host as net and dns take it: an IPv6 address without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

async function resolve(host: string): Promise<string[]> {
  try {
    return (await dns.promises.lookup(host, { all: true, verbatim: true })).map(({ address }) => address)
  } catch {
    throw badUrl(`the host "${host}" was not found: check the URL's spelling`)
  }
}

/**
 * A `lookup` for the connection that posts a delivery: it resolves the name, refuses when any address is
 * not public, and hands the connection the addresses it checked, so a name that resolved to a public
 * address when the endpoint was added cannot lead the delivery to a private one later (DNS rebinding).
 */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '', 0)
      return
    }
    const local = addresses.find(({ address }) => !isPublicAddress(address))
    if (local || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(
        `the host resolves to ${local?.address ?? 'no address'}, a local or private address`,
      )
      refused.code = 'WEBHOOK_PRIVATE_ADDRESS'
      callback(refused, '', 0)
      return
    }
    if (options.all) callback(null, addresses)
    else callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

function badUrl(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
