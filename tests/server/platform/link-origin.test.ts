import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  createPostgresDatabase,
  createTestContext,
  DIALECTS,
  makeClaimData,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { fileClaim } from '../support/claims.ts'
import { invitationTo, linkIn, mailsTo, waitForLinkMail } from '../support/agreement-link.ts'
import { killServerProcesses, startServerProcess } from '../support/server-process.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
const EVIL = 'evil.tld'
const ANA = {
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana.lopez@example.com',
  phoneNumber: '(555) 223-4567',
}
const ANA_CONTACT = { email: ANA.email, phone: ANA.phoneNumber }
/** The origin a server started without PUBLIC_URL gives its links: its own address, whatever Host was sent. */
const OWN_ORIGIN = /^http:\/\/127\.0\.0\.1:\d+$/

afterAll(() => killServerProcesses())

/** The whole message with quoted-printable's soft line breaks and escaped '=' undone (the copy nests its parts). */
function unfolded(eml: string): string {
  return eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: e-mailed links without PUBLIC_URL`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await ctx.agreementCopies.settled()
      await clearClaims(ctx)
    })

    const fileClaimVia = (host: string) =>
      fileClaim(ctx, {
        app: 'brigit',
        fields: ANA,
        headers: { Host: host, Origin: `http://${host}` },
        screenshot: SCREENSHOT,
      })

    it(`puts the agreement link of a lookup sent with Host: ${EVIL} on the server's own origin`, async () => {
      await fileClaimVia('127.0.0.1')
      await request(ctx.app)
        .post('/api/agreements/lookup')
        .set({ Host: EVIL, Origin: `http://${EVIL}` })
        .send(ANA_CONTACT)
        .expect(202)
      await ctx.agreementLinks.settled()

      const link = mailsTo(ctx.dataDir, ANA.email)
        .map(({ eml }) => linkIn(eml))
        .find(Boolean)
      expect(link).toBeDefined()
      expect(new URL(link!).origin).toMatch(OWN_ORIGIN)
      for (const { eml } of mailsTo(ctx.dataDir, ANA.email)) expect(eml).not.toContain(EVIL)
    })

    it(`puts the confirmation link of a claim sent with Host: ${EVIL} on the server's own origin`, async () => {
      await fileClaimVia(EVIL)
      ctx.agreementCopies.wake()
      await ctx.agreementCopies.settled()

      const [copy] = mailsTo(ctx.dataDir, ANA.email)
      const link = /(\S+\/confirm#token=[A-Za-z0-9_-]+)/.exec(unfolded(copy!.eml))?.[1]
      expect(link).toBeDefined()
      expect(new URL(link!).origin).toMatch(OWN_ORIGIN)
      expect(copy!.eml).not.toContain(EVIL)
    })

    it(`puts a staff invitation sent with Host: ${EVIL} on the server's own origin`, async () => {
      const cookie = await loginStaff(ctx.app, { site: EVIL })
      await request(ctx.app)
        .post('/api/staff/accounts')
        .set({ Host: EVIL, Origin: `http://${EVIL}`, Cookie: cookie })
        .send({
          email: 'pat@firm.test',
          name: 'Pat',
          role: 'staff',
          apps: [{ app: 'brigit', canExport: false }],
        })
        .expect(201)

      const { url } = invitationTo(ctx.dataDir, 'pat@firm.test')
      expect(new URL(url).origin).toMatch(OWN_ORIGIN)
      for (const { eml } of mailsTo(ctx.dataDir, 'pat@firm.test')) expect(eml).not.toContain(EVIL)
    })
  })

  describe(`${dialect}: e-mailed links of a server started on PORT=0 without PUBLIC_URL`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-link-origin-'))
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

    it(`are on the address it listens on, port included, for a lookup sent with Host: ${EVIL}`, async () => {
      const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
      try {
        const server = await startServerProcess({ dataDir, databaseUrl: database?.url })
        const form = new FormData()
        form.append('data', JSON.stringify(makeClaimData(ANA)))
        form.append('screenshot', new Blob([new Uint8Array(SCREENSHOT)]), 's.png')
        const filed = await fetch(`${server.url}/api/forms/brigit/submissions`, {
          method: 'POST',
          body: form,
        })
        expect(filed.status).toBe(201)

        // fetch will not send a Host of our choosing; node:http will
        const status = await new Promise<number | undefined>((resolve, reject) => {
          const body = JSON.stringify(ANA_CONTACT)
          const req = http.request(
            `${server.url}/api/agreements/lookup`,
            { method: 'POST', headers: { Host: EVIL, 'Content-Type': 'application/json' } },
            (res) => {
              res.resume()
              resolve(res.statusCode)
            },
          )
          req.once('error', reject)
          req.end(body)
        })
        expect(status).toBe(202)

        const mail = await waitForLinkMail({ dataDir, address: ANA.email })
        expect(new URL(linkIn(mail.eml)!).origin).toBe(server.url)
        expect(server.url).not.toMatch(/:0$/)
        expect(mail.eml).not.toContain(EVIL)
      } finally {
        await killServerProcesses()
        await database?.drop()
      }
    })
  })
}
