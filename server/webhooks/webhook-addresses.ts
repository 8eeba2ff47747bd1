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
// written as IPv6) is checked against the IPv4 ranges by BlockList itself. NAT64's local-use prefix
// (64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) lead through a gateway or relay to an IPv4
// address the operator's network chooses or the address embeds, private ones included: refused whole,
// as no public receiver needs them.
for (const [address, prefix] of [
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
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
    return await resolveHost(host, { timeoutMs: REGISTER_LOOKUP_TIMEOUT_MS })
  } catch {
    throw badUrl(`the host "${host}" was not found: check the URL's spelling`)
  }
}

/** How long adding an endpoint waits for its name to resolve. */
const REGISTER_LOOKUP_TIMEOUT_MS = 5_000

/**
 * A host name's IPv4 and IPv6 addresses, asked of the name servers through c-ares (dns.Resolver), not
 * dns.lookup: a slow name server then holds none of libuv's four pool threads, which file reads, zlib
 * and password hashing share. Gives up after `timeoutMs`, so a lookup never outlasts its caller's
 * deadline. `localhost` and its subdomains are loopback by definition and never asked of DNS.
 */
export async function resolveHost(
  host: string,
  { timeoutMs, servers }: { timeoutMs: number; servers?: string[] },
): Promise<string[]> {
  const name = host.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1']
  const resolver = new dns.promises.Resolver({ timeout: timeoutMs, tries: 1 })
  if (servers) resolver.setServers(servers)
  const timer = setTimeout(() => resolver.cancel(), timeoutMs)
  try {
    const answers = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)])
    const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []))
    if (addresses.length > 0) return addresses
    const failed = answers.find((answer) => answer.status === 'rejected')
    throw failed?.reason ?? new Error(`${name} has no address`)
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A `lookup` for the connection that posts a delivery: it resolves the name (within `timeoutMs`, the
 * attempt's own cut-off), refuses when any address is not public, and hands the connection the
 * addresses it checked, so a name that resolved to a public address when the endpoint was added cannot
 * lead the delivery to a private one later (DNS rebinding).
 */
export function publicOnlyLookup(timeoutMs: number): net.LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0)
    resolveHost(hostname, { timeoutMs }).then(
      (found) => {
        const local = found.find((address) => !isPublicAddress(address))
        const addresses = found
          .map((address) => ({ address, family: net.isIP(address) }))
          .filter(({ family }) => wanted === 0 || wanted === family)
        if (local !== undefined || addresses.length === 0) {
          const refused: NodeJS.ErrnoException = new Error(
            `the host resolves to ${local ?? 'no address'}, a local or private address`,
          )
          refused.code = 'WEBHOOK_PRIVATE_ADDRESS'
          callback(refused, '', 0)
        } else if (options.all) callback(null, addresses)
        else callback(null, addresses[0]!.address, addresses[0]!.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    )
  }
}

/**
 * Whether an endpoint may be sent the claimant's name, e-mail and phone: only over https://, so they
 * are never readable on the way. WEBHOOKS_ALLOW_PRIVATE (tests) lets a plain http:// receiver on
 * 127.0.0.1 have them too.
 */
export function mayReceiveDetails(url: string, allowPrivate: boolean): boolean {
  return allowPrivate || new URL(url).protocol === 'https:'
}

/** The 400 for an endpoint that would receive the claimant's details without https://. */
export function detailsNeedHttps(): AppError {
  return badUrl("the claimant's details are sent only to an https:// URL: give one, or leave the details out")
}

function badUrl(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
