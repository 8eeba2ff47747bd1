import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOOKUP_RATE_LIMITED_MESSAGE } from '../../../src/lookup-messages.ts'
import { LOGIN_RATE_LIMITED_MESSAGE } from '../../../src/staff-messages.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createPostgresDatabase,
  makeClaimData,
  readFixture,
} from '../support/helpers.ts'
import { createS3ScreenshotStorage } from '../../../server/uploads/s3-screenshot-storage.ts'
import { startS3Process, type S3Process } from '../support/s3-process.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const LIMIT = 10
const LOOKUPS_PER_ADDRESS = 100

/**
 * A TCP relay in front of PostgreSQL for instance B alone: closing it (and cutting the connections
 * through it) makes B's database unreachable while A's stays up, as a network fault between two
 * machines would.
 */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let port = 0
  const open = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
    port = (server.address() as net.AddressInfo).port
  }
  await open()
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
    },
    reopen: open,
  }
}

function claimForm(phoneNumber: string, email: string): FormData {
  const form = new FormData()
  form.append('data', JSON.stringify(makeClaimData({ phoneNumber, email })))
  form.append('screenshot', new Blob([new Uint8Array(SCREENSHOT)], { type: 'image/png' }), 'statement.png')
  return form
}

function fileClaim(server: ServerProcess, phoneNumber: string, email: string) {
  return fetch(`${server.url}/api/forms/brigit/submissions`, {
    method: 'POST',
    body: claimForm(phoneNumber, email),
  })
}

/** A staff or claimant POST as the page sends it, through a proxy on 127.0.0.1 that names the client. */
function post(server: ServerProcess, route: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url, ...headers },
    body: JSON.stringify(body),
  })
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function outboxFiles(dataDir: string): string[] {
  const outbox = path.join(dataDir, 'outbox')
  return fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')) : []
}

/** The first admin signs in on the server; the staff_session cookie, as a Cookie header's value. */
async function signIn(server: ServerProcess): Promise<string> {
  const login = await post(server, '/api/staff/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  expect(login.status).toBe(204)
  return login.headers.getSetCookie()[0]!.split(';')[0]!
}

describe('two instances over one PostgreSQL and one S3 bucket', () => {
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'claims-instance-')))
  let database: { url: string; drop(): Promise<void> }
  let s3: S3Process
  let relay: Awaited<ReturnType<typeof startRelay>>
  let a: ServerProcess
  let b: ServerProcess
  /** The first admin's session, signed in on A, for the tests that read the dashboard. */
  let staffCookie = ''

  beforeAll(async () => {
    database = await createPostgresDatabase()
    s3 = await startS3Process()
    const url = new URL(database.url)
    relay = await startRelay({ host: url.hostname, port: Number(url.port) })
    const viaRelay = new URL(database.url)
    viaRelay.port = String(relay.port)
    const env = {
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_REGION: s3.settings.region,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      // one key for both, as their seals go into one ledger
      EVIDENCE_KEY: crypto.randomBytes(32).toString('hex'),
      // above the claims this file sends from 127.0.0.1, so the lookups' own count is what reaches it
      PUBLIC_LIMIT_PER_ADDRESS: String(LOOKUPS_PER_ADDRESS),
    }
    // A first: it migrates the new database; each has a disk of its own, as two machines would
    a = await startServerProcess({ dataDir: dataDirs[0]!, databaseUrl: database.url, env })
    b = await startServerProcess({ dataDir: dataDirs[1]!, databaseUrl: viaRelay.toString(), env })
    staffCookie = await signIn(a)
  }, 120_000)

  afterAll(async () => {
    await killServerProcesses()
    await relay?.cut()
    await s3?.stop()
    await database?.drop()
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('shares a staff session: logged in on A, B opens the dashboard', async () => {
    const cookie = await signIn(a)
    const session = await fetch(`${b.url}/api/staff/session`, { headers: { Cookie: cookie } })
    expect(session.status).toBe(200)
    expect(await session.json()).toMatchObject({
      authenticated: true,
      account: { email: ADMIN_EMAIL, role: 'admin' },
    })
  })

  it('shows a claim filed on A, with its screenshot, on B’s dashboard', async () => {
    const filed = await fileClaim(a, '(555) 223-4100', 'ines.a@example.com')
    expect(filed.status).toBe(201)
    const { id } = (await filed.json()) as { id: number }

    const list = await fetch(`${b.url}/api/staff/apps/brigit/submissions?q=ines.a`, {
      headers: { Cookie: staffCookie },
    })
    const { data } = (await list.json()) as { data: { id: number; email: string }[] }
    expect(data.map((row) => [row.id, row.email])).toEqual([[id, 'ines.a@example.com']])

    const screenshot = await fetch(`${b.url}/api/staff/claims/${id}/screenshot`, {
      headers: { Cookie: staffCookie },
    })
    expect(screenshot.status).toBe(200)
    expect(screenshot.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await screenshot.arrayBuffer()).equals(SCREENSHOT)).toBe(true)
    // nothing on either machine's disk: the bucket holds it
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'screenshots'))).toBe(false)
  })

  it('sends each claim’s e-mail copy once, from one instance or the other', async () => {
    const copies = () =>
      dataDirs
        .flatMap((dir) =>
          outboxFiles(dir).map((name) => fs.readFileSync(path.join(dir, 'outbox', name), 'utf8')),
        )
        // the admins' daily digest of the ledger's head is not a claim's copy
        .filter((text) => !/^Subject: Evidence ledger head/m.test(text))
        .map((text) => /^To: (.+)$/m.exec(text)?.[1]?.trim())
    const sixCopies = Array.from({ length: 6 }, (_, i) => `copy${i}@example.com`)
    for (const [i, email] of sixCopies.entries()) {
      const server = i % 2 === 0 ? a : b
      expect((await fileClaim(server, `(555) 223-42${10 + i}`, email)).status).toBe(201)
    }
    const ofTheSix = () => copies().filter((to) => sixCopies.includes(to!))
    // each copy seals a PDF, after the claims of a busy machine
    await waitFor(async () => ofTheSix().length >= 6, 'six e-mail copies', 60_000)
    // a second copy of any would come within this
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(ofTheSix().sort()).toEqual(sixCopies)
    // nor a second copy of a claim filed before
    const recipients = copies()
    expect(new Set(recipients).size).toBe(recipients.length)
  }, 90_000)

  it('stores one claim from 50 parallel submissions of one phone split across A and B', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fileClaim(i % 2 === 0 ? a : b, '(555) 223-4999', `racer${i}@example.com`),
      ),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(49)
    const list = await fetch(`${a.url}/api/staff/apps/brigit/submissions?q=223-4999`, {
      headers: { Cookie: staffCookie },
    })
    expect(((await list.json()) as { count: number }).count).toBe(1)
  })

  it('counts failed logins and lookups across both instances', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.77' }
    for (let i = 0; i < LIMIT; i++) {
      const server = i % 2 === 0 ? a : b
      expect((await post(server, '/api/staff/login', { password: 'wrong' }, client)).status).toBe(401)
    }
    const locked = await post(b, '/api/staff/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, client)
    expect(locked.status).toBe(429)
    expect(((await locked.json()) as { error: { message: string } }).error.message).toBe(
      LOGIN_RATE_LIMITED_MESSAGE,
    )

    const contact = { email: 'nobody@example.com', phone: '(555) 223-9876' }
    for (let i = 0; i < LOOKUPS_PER_ADDRESS; i++) {
      expect((await post(i % 2 === 0 ? b : a, '/api/agreements/lookup', contact, client)).status).toBe(202)
    }
    const limited = await post(a, '/api/agreements/lookup', contact, client)
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as { error: { message: string } }).error.message).toBe(
      LOOKUP_RATE_LIMITED_MESSAGE,
    )
  })

  it('answers /readyz 503 on B while its database is unreachable, claims 503 naming it, and 200 again after', async () => {
    const ready = async (server: ServerProcess) => (await fetch(`${server.url}/readyz`)).status
    expect(await ready(b)).toBe(200)
    await relay.cut()
    // B answers from its last check for up to a second
    let down: Response | undefined
    await waitFor(async () => {
      down = await fetch(`${b.url}/readyz`).catch((error: unknown) => {
        throw new Error(`B stopped answering; it printed:\n${b.output().slice(-3000)}`, { cause: error })
      })
      return down.status === 503
    }, 'B unavailable')
    const body = (await down!.json()) as { status: string; checks: Record<string, string> }
    expect(body.status).toBe('unavailable')
    // why goes to B's log, not to whoever asks
    expect(body.checks.database).toBe('failed')
    expect(body.checks.screenshotStore).toBe('ok')
    expect(await ready(a)).toBe(200)
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200)

    const bucket = createS3ScreenshotStorage(s3.settings)
    const objectsBefore = (await bucket.keys('brigit')).length
    const refused = await fileClaim(b, '(555) 223-4600', 'during.outage@example.com')
    expect(refused.status).toBe(503)
    // the screenshot written before the database refused is gone again
    expect(await bucket.keys('brigit')).toHaveLength(objectsBefore)
    await bucket.close()
    expect(await refused.json()).toEqual({
      error: {
        code: 'STORE_UNAVAILABLE',
        message: 'the database cannot be reached; please try again in a few minutes',
      },
    })

    await relay.reopen()
    await waitFor(async () => (await ready(b)) === 200, 'B ready again')
    expect((await fileClaim(b, '(555) 223-4600', 'during.outage@example.com')).status).toBe(201)
  })
})
