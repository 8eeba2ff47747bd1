import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LINK_SENT_MESSAGE,
  LINK_USED_OR_EXPIRED_MESSAGE,
  LOOKUP_RATE_LIMITED_MESSAGE,
} from '../../../src/lookup-messages.ts'
import { INVALID_PASSWORD_MESSAGE, LOGIN_RATE_LIMITED_MESSAGE } from '../../../src/staff-messages.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createPostgresDatabase,
  DIALECTS,
  makeClaimData,
  makePng,
} from '../support/helpers.ts'
import { linkTokenIn, waitForLinkMail } from '../support/agreement-link.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

/** Both limits are 10 per 15 minutes per client address (docs/staff-dashboards.md and docs/claimant-pages.md). */
const LIMIT = 10
const CLAIMANT = { email: 'rosa.diaz@example.com', phone: '(555) 321-7788' }

/** A request as it reaches the server through a proxy on 127.0.0.1 (`trust proxy` is loopback). */
function post(server: ServerProcess, route: string, body: unknown, clientAddress: string) {
  return fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      // the dashboard's own page sends its origin; the server refuses staff POSTs from elsewhere
      Origin: server.url,
      'X-Forwarded-For': clientAddress,
    },
    body: JSON.stringify(body),
  })
}

async function answer(response: Response): Promise<{ status: number; message: string | undefined }> {
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } }
  return { status: response.status, message: body.error?.message }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: rate limits across two server processes on one database`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-two-processes-'))
    let database: { url: string; drop(): Promise<void> } | undefined
    let servers: [ServerProcess, ServerProcess]

    beforeAll(async () => {
      database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
      // one after the other: the first migrates the new database, the second finds it ready
      // lookups per address and 15 minutes, as PUBLIC_LIMIT_PER_ADDRESS counts them
      const env = { PUBLIC_LIMIT_PER_ADDRESS: String(LIMIT) }
      const first = await startServerProcess({ dataDir, databaseUrl: database?.url, env })
      const second = await startServerProcess({ dataDir, databaseUrl: database?.url, env })
      servers = [first, second]
      const form = new FormData()
      form.append(
        'data',
        JSON.stringify(makeClaimData({ email: CLAIMANT.email, phoneNumber: CLAIMANT.phone })),
      )
      form.append(
        'screenshot',
        new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))], { type: 'image/png' }),
        'a.png',
      )
      const filed = await fetch(`${first.url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
      expect(filed.status).toBe(201)
    }, 90_000)

    afterAll(async () => {
      await killServerProcesses()
      await database?.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    })

    it('refuses the 11th staff login from one address, whichever process gets it, even with the right password', async () => {
      const address = '203.0.113.21'
      const attempts = []
      for (let i = 0; i < LIMIT; i++) {
        attempts.push(
          await answer(await post(servers[i % 2]!, '/api/staff/login', { password: `guess ${i}` }, address)),
        )
      }
      expect(attempts).toEqual(Array(LIMIT).fill({ status: 401, message: INVALID_PASSWORD_MESSAGE }))

      for (const server of servers) {
        const response = await post(
          server,
          '/api/staff/login',
          { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
          address,
        )
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(await answer(response)).toEqual({ status: 429, message: LOGIN_RATE_LIMITED_MESSAGE })
      }
    })

    it('still lets another address log in on either process', async () => {
      const other = '203.0.113.22'
      expect(await answer(await post(servers[0], '/api/staff/login', { password: 'wrong' }, other))).toEqual({
        status: 401,
        message: INVALID_PASSWORD_MESSAGE,
      })
      const login = await post(
        servers[1],
        '/api/staff/login',
        { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        other,
      )
      expect(login.status).toBe(204)
    })

    it('refuses the 11th agreement lookup from one address, whichever process gets it', async () => {
      const address = '203.0.113.31'
      const answers = []
      for (let i = 0; i < LIMIT; i++) {
        const response = await post(servers[i % 2]!, '/api/agreements/lookup', CLAIMANT, address)
        answers.push([response.status, await response.json()])
      }
      expect(answers).toEqual(Array(LIMIT).fill([202, { message: LINK_SENT_MESSAGE }]))

      for (const server of servers) {
        const response = await post(server, '/api/agreements/lookup', CLAIMANT, address)
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(await answer(response)).toEqual({ status: 429, message: LOOKUP_RATE_LIMITED_MESSAGE })
      }
    })

    it('still answers lookups from another address on either process', async () => {
      const other = '203.0.113.32'
      const stranger = { email: 'nobody@example.com', phone: CLAIMANT.phone }
      expect((await post(servers[0], '/api/agreements/lookup', stranger, other)).status).toBe(202)
      expect((await post(servers[1], '/api/agreements/lookup', CLAIMANT, other)).status).toBe(202)
    })

    it('opens an e-mailed link once, whichever process gets the second open', async () => {
      const mail = await waitForLinkMail({ dataDir, address: CLAIMANT.email })
      const token = linkTokenIn(mail.eml)

      const first = await post(servers[1], '/api/agreements/open', { token }, '203.0.113.33')
      const second = await post(servers[0], '/api/agreements/open', { token }, '203.0.113.33')

      expect(first.status).toBe(200)
      const { agreements } = (await first.json()) as { agreements: { email: string }[] }
      expect(agreements.map((agreement) => agreement.email)).toEqual([CLAIMANT.email])
      expect(await answer(second)).toEqual({ status: 410, message: LINK_USED_OR_EXPIRED_MESSAGE })
    })
  })
}
