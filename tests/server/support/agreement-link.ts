import fs from 'node:fs'
import path from 'node:path'
import type { Express } from 'express'
import request from 'supertest'
import { expect } from 'vitest'
import type { ClaimantStatus, FoundAgreement } from '../../../src/api/agreements.ts'
import type { TestContext } from './helpers.ts'

/** The claimant of the agreement-link tests: her claim's answers, and the contact the lookup asks for. */
export const ANA = {
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana.lopez@example.com',
  phoneNumber: '(555) 223-4567',
}
export const ANA_CONTACT = { email: ANA.email, phone: ANA.phoneNumber }

export interface OutboxMail {
  /** The file's name in DATA_DIR/outbox: they sort oldest first. */
  name: string
  eml: string
}

/** The .eml files in dataDir/outbox addressed to `address`, oldest first. */
export function mailsTo(dataDir: string, address: string): OutboxMail[] {
  const outbox = path.join(dataDir, 'outbox')
  if (!fs.existsSync(outbox)) return []
  const to = new RegExp(`^To: ${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'im')
  return fs
    .readdirSync(outbox)
    .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
    .sort()
    .map((name) => ({ name, eml: fs.readFileSync(path.join(outbox, name), 'utf8') }))
    .filter(({ eml }) => to.test(eml))
}

/**
 * The staff invitation link e-mailed last to `email`, and its token: the newest e-mail that holds one
 * (a two-factor notice may have come after it).
 */
export function invitationTo(dataDir: string, email: string): { url: string; token: string } {
  for (const { eml } of mailsTo(dataDir, email).reverse()) {
    const match = /(\S+\/staff\/invite#token=([\w-]+))/.exec(plainTextOf(eml))
    if (match) return { url: match[1]!, token: match[2]! }
  }
  throw new Error(`no invitation to ${email} in the outbox`)
}

/** The code of the newest two-factor set-up e-mail to `email` (8 digits on a line of their own). */
export function setupCodeTo(dataDir: string, email: string): string {
  for (const { eml } of mailsTo(dataDir, email).reverse()) {
    if (!/^Subject: Your code to set up two-factor sign-in$/m.test(eml)) continue
    const code = /^\s*(\d{8})\s*$/m.exec(plainTextOf(eml))?.[1]
    if (code) return code
  }
  throw new Error(`no two-factor set-up code to ${email} in the outbox`)
}

/** The e-mails to `address` that carry an agreement link (not the copies of signed agreements). */
export function linkMailsTo(dataDir: string, address: string): OutboxMail[] {
  return mailsTo(dataDir, address).filter(({ eml }) => linkTokenIn(eml) !== undefined)
}

/** The message's text/plain part, decoded from quoted-printable or base64. */
export function plainTextOf(eml: string): string {
  return partOf(eml, 'text/plain')
}

/** The link the message carries, whole: `http://…/view-agreement#link=…`. */
export function linkIn(eml: string): string | undefined {
  return /(\S+\/view-agreement\S*#link=[A-Za-z0-9_-]{43})/.exec(plainTextOf(eml))?.[1]
}

export function linkTokenIn(eml: string): string | undefined {
  return linkIn(eml)?.split('#link=')[1]
}

/** Waits (up to 10 s) for a link e-mail to `address` that is not among `seen`, for a server in another process. */
export async function waitForLinkMail({
  dataDir,
  address,
  seen = [],
}: {
  dataDir: string
  address: string
  seen?: OutboxMail[]
}): Promise<OutboxMail> {
  const before = new Set(seen.map(({ name }) => name))
  for (let waited = 0; waited < 10_000; waited += 50) {
    const fresh = linkMailsTo(dataDir, address).find(({ name }) => !before.has(name))
    if (fresh) return fresh
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no agreement link was e-mailed to ${address} within 10 s`)
}

export interface OpenedLink {
  agreements: FoundAgreement[]
  /** Where each claim stands, and the apps still to do. */
  status: ClaimantStatus
  downloadKey: string
  /** The token the e-mail carried (already used). */
  token: string
}

/**
 * What a claimant does to see their agreements: asks with e-mail and phone (202), takes the link from
 * the newest e-mail to the stored address, and opens it. Fails the test when no e-mail comes.
 */
export async function openAgreementsByLink(
  ctx: Pick<TestContext, 'app' | 'dataDir' | 'agreementLinks'>,
  contact: { email: string; phone: string },
  {
    app = ctx.app,
    to = contact.email.trim().toLowerCase(),
    lang,
  }: { app?: Express; to?: string; lang?: string } = {},
): Promise<OpenedLink> {
  const seen = linkMailsTo(ctx.dataDir, to)
  const asked = await request(app)
    .post('/api/agreements/lookup')
    .query(lang ? { lang } : {})
    .send(contact)
  expect(asked.status).toBe(202)
  await ctx.agreementLinks.settled()
  const mail = linkMailsTo(ctx.dataDir, to).find(({ name }) => !seen.some((old) => old.name === name))
  if (!mail) throw new Error(`no agreement link was e-mailed to ${to}`)
  const token = linkTokenIn(mail.eml)!
  const opened = await request(app).post('/api/agreements/open').send({ token })
  expect(opened.status).toBe(200)
  return { ...(opened.body as Omit<OpenedLink, 'token'>), token }
}

/** The claimant's agreements as the opened link lists them (what the lookup itself answered before). */
export async function findAgreementsByLink(
  ctx: Pick<TestContext, 'app' | 'dataDir' | 'agreementLinks'>,
  contact: { email: string; phone: string },
  options?: { app?: Express; lang?: string },
): Promise<FoundAgreement[]> {
  return (await openAgreementsByLink(ctx, contact, options)).agreements
}

/**
 * A message's part of `type` at any depth (beside attachments too), decoded (nodemailer writes
 * quoted-printable or base64). Parts are cut at the boundaries the message declares, never at any line
 * that starts with "--": a link's token can start a quoted-printable line with two dashes.
 */
export function partOf(eml: string, type: 'text/plain' | 'text/html'): string {
  const boundaries = [...eml.matchAll(/boundary="?([^";\s]+)"?/gi)].map(([, boundary]) => boundary!)
  const sections =
    boundaries.length === 0
      ? [eml]
      : eml.split(new RegExp(`\\r?\\n--(?:${boundaries.map(escapeRegExp).join('|')})(?:--)?`))
  for (const section of sections) {
    const [headers = '', ...rest] = section.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
    if (!new RegExp(`^Content-Type: ${type}\\b`, 'im').test(headers)) continue
    const body = rest.join('\n\n')
    if (/^Content-Transfer-Encoding: base64/im.test(headers))
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    if (!/^Content-Transfer-Encoding: quoted-printable/im.test(headers)) return body
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return ''
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
