import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import yauzl from 'yauzl'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDuplicateScreenshots,
  type DuplicateScreenshots,
} from '../../../server/duplicates/duplicate-screenshots.ts'
import { screenshotHashThread } from '../../../server/duplicates/screenshot-hasher.ts'
import { entryText } from '../../../server/evidence/ledger.ts'
import { createLogger } from '../../../server/logger.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { bankScreenshot, encodePngImage } from '../support/bank-screenshots.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { fileClaim } from '../support/claims.ts'

const SITE = 'scope.test'
const SCREENSHOT = encodePngImage(bankScreenshot({ seed: 3, width: 540, height: 1170 }))
const PARALEGAL = { email: 'brigit.paralegal@firm.test', password: 'paralegal password 1' }

interface LedgerJsonEntry {
  seq: number
  hash: string
  prev_hash: string
  hmac: string
  subject?: string
  kind?: string
  at?: string
  seal?: string
  detail?: string
}

/** The files of a ZIP by name, read with yauzl as any unzip tool would. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error)
      const files = new Map<string, Buffer>()
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks))
            archive.readEntry()
          })
        })
      })
      archive.on('end', () => resolve(files))
      archive.on('error', reject)
      archive.readEntry()
    })
  })
}

function sha256Text(text: string): string {
  return execFileSync('sha256sum', { input: text, encoding: 'utf8' }).split(' ')[0]!
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: what a staff account of one app sees of another app's claims`, () => {
    let ctx: TestContext
    let sweeper: DuplicateScreenshots
    let admin = ''
    let paralegal = ''
    let brigitClaim = 0
    let cleoClaim = 0
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-scope-'))

    const claimant = (n: number) => ({ phoneNumber: `(415) 555-0${n}11`, email: `claimant${n}@example.com` })

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      sweeper = createDuplicateScreenshots({
        db: ctx.db,
        storage: ctx.storage,
        hasher: screenshotHashThread(),
        logger: createLogger('silent'),
      })
      // one screenshot, two claimants, two apps, filed one after the other: neighbours in the ledger
      brigitClaim = (await fileClaim(ctx, { app: 'brigit', fields: claimant(1), screenshot: SCREENSHOT })).id
      cleoClaim = (await fileClaim(ctx, { app: 'cleo', fields: claimant(2), screenshot: SCREENSHOT })).id
      sweeper.wake()
      await sweeper.settled()
      await createAccount(ctx.db, {
        ...PARALEGAL,
        name: 'Pat Paralegal',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: true }],
      })
      admin = await loginStaff(ctx.app, { site: SITE })
      paralegal = await loginStaff(ctx.app, { site: SITE, ...PARALEGAL })
    })
    afterAll(async () => {
      await sweeper?.stop()
      await ctx?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    function get(url: string, cookie: string) {
      return request(ctx.app).get(url).set({ Cookie: cookie, Host: SITE })
    }

    async function flaggedCells(url: string, cookie: string): Promise<string[][]> {
      const csv = (await get(url, cookie).expect(200)).text
      return csv
        .slice(1)
        .trim()
        .split('\r\n')
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => [line.split(',')[0]!, ...line.split(',').slice(12, 14)])
    }

    async function ledgerOf(id: number, cookie: string): Promise<LedgerJsonEntry[]> {
      const zip = await get(`/api/staff/claims/${id}/evidence.zip`, cookie)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => done(null, Buffer.concat(chunks)))
        })
        .expect(200)
      const files = await unzip(zip.body as Buffer)
      return JSON.parse(files.get('ledger.json')!.toString('utf8')) as LedgerJsonEntry[]
    }

    it('the two claims match each other', async () => {
      const matches = await ctx.db.selectFrom('screenshot_matches').select('claim_id').execute()
      expect(matches.map(({ claim_id }) => Number(claim_id)).sort()).toEqual([brigitClaim, cleoClaim].sort())
    })

    it("leaves the other app's claim out of duplicateOf in the list and the claim's details for the paralegal", async () => {
      const list = await get('/api/staff/apps/brigit/submissions', paralegal).expect(200)
      expect(list.body.data).toMatchObject([{ id: brigitClaim, duplicateOf: [] }])
      const details = await get(`/api/staff/claims/${brigitClaim}`, paralegal).expect(200)
      expect(details.body).toMatchObject({ id: brigitClaim, duplicateOf: [] })
    })

    it('shows an admin the match in both apps', async () => {
      const list = await get('/api/staff/apps/brigit/submissions', admin).expect(200)
      expect(list.body.data).toMatchObject([{ id: brigitClaim, duplicateOf: [cleoClaim] }])
      const details = await get(`/api/staff/claims/${cleoClaim}`, admin).expect(200)
      expect(details.body).toMatchObject({ id: cleoClaim, duplicateOf: [brigitClaim] })
    })

    it("leaves the other app's claim out of the CSV's Flagged columns for the paralegal, not for an admin", async () => {
      const url = '/api/staff/apps/brigit/export.csv'
      expect(await flaggedCells(url, paralegal)).toEqual([[String(brigitClaim), 'No', '']])
      expect(await flaggedCells(url, admin)).toEqual([[String(brigitClaim), 'Yes', String(cleoClaim)]])
      expect(await flaggedCells(`${url}?flagged=1`, admin)).toEqual([
        [String(brigitClaim), 'Yes', String(cleoClaim)],
      ])
    })

    it('does not count a claim as flagged for the paralegal when its only match is in an app they may not see', async () => {
      const list = await get('/api/staff/apps/brigit/submissions?flagged=1', paralegal).expect(200)
      expect(list.body).toMatchObject({ count: 0, total: 1, data: [] })
      expect(await flaggedCells('/api/staff/apps/brigit/export.csv?flagged=1', paralegal)).toEqual([])

      const seen = await get('/api/staff/apps/brigit/submissions?flagged=1', admin).expect(200)
      expect(seen.body).toMatchObject({ count: 1, total: 1, data: [{ id: brigitClaim }] })
    })

    it("gives the paralegal's bundle the neighbouring entry of the other app's claim as its hashes only, still linked", async () => {
      const ledger = await ledgerOf(brigitClaim, paralegal)
      const own = ledger.find((entry) => entry.subject === `claim:${brigitClaim}`)!
      const next = ledger.find((entry) => entry.seq === own.seq + 1)!
      expect(JSON.stringify(ledger)).not.toContain(`claim:${cleoClaim}`)
      expect(Object.keys(next).sort()).toEqual(['hash', 'hmac', 'prev_hash', 'seq'])
      // the chain still holds around the claim's own entry: its hash recomputes, the next one points at it
      expect(sha256Text(entryText({ ...(own as Required<LedgerJsonEntry>) }))).toBe(own.hash)
      expect(next.prev_hash).toBe(own.hash)
      const before = ledger.find((entry) => entry.seq === own.seq - 1)
      if (before) expect(own.prev_hash).toBe(before.hash)
    })

    it("gives an admin's bundle the other app's neighbouring entry whole", async () => {
      const ledger = await ledgerOf(brigitClaim, admin)
      const own = ledger.find((entry) => entry.subject === `claim:${brigitClaim}`)!
      const next = ledger.find((entry) => entry.seq === own.seq + 1)!
      expect(next).toMatchObject({ subject: `claim:${cleoClaim}`, kind: 'claim', prev_hash: own.hash })
      expect(sha256Text(entryText(next as Required<LedgerJsonEntry>))).toBe(next.hash)
    })
  })
}
