import type { Request } from 'express'
import { clientAddress } from '../client-address.ts'

const MAX_USER_AGENT_LENGTH = 512

/** Where a signature came from: the client address and user agent the signed record keeps. */
export interface SignerInfo {
  ipAddress: string
  userAgent: string
}

/** Where a signature came from, as the signed record keeps it. */
export function signerOf(req: Request): SignerInfo {
  return {
    ipAddress: clientAddress(req),
    userAgent: (req.get('user-agent') ?? '').slice(0, MAX_USER_AGENT_LENGTH),
  }
}
