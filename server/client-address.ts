import net from 'node:net'
import type { Request } from 'express'

/**
 * The client's address as the TRUST_PROXY setting decides it (Express's req.ip: the right-most address
 * of X-Forwarded-For not set by a trusted proxy). Every rate limit, audit line and signed record uses
 * this one; an IPv4 address that reached an IPv6 socket (::ffff:203.0.113.7) is written as IPv4.
 */
export function clientAddress(req: Request): string {
  // req.ip walks X-Forwarded-For through the trust setting on every read; a claim asks twice (its limit,
  // its signed record)
  let known = addressOf.get(req)
  if (known === undefined) addressOf.set(req, (known = readClientAddress(req)))
  return known
}

const addressOf = new WeakMap<Request, string>()

function readClientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress
  if (!address) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1]! : address
}

/**
 * What a rate limit counts as one client: an IPv4 address, or an IPv6 address's /64. A home line or a
 * phone is handed a whole /64, so counting single IPv6 addresses would let one client take 2^64 turns.
 */
export function addressBucket(address: string): string {
  if (net.isIPv6(address)) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`
  return address
}

/** The eight groups of an IPv6 address, each written in full lowercase hex. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const split = (part: string) => (part === '' ? [] : part.split(':'))
  const expand = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes('.')) return [group.padStart(4, '0')]
      // an embedded IPv4 (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
      return [((a << 8) | b).toString(16).padStart(4, '0'), ((c << 8) | d).toString(16).padStart(4, '0')]
    })
  const left = expand(split(head))
  if (tail === undefined) return left
  const right = expand(split(tail))
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0000'), ...right]
}
