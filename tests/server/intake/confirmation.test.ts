import fs from 'node:fs'
import path from 'node:path'
import { Migrator, type Kysely } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../../migrations/index.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { ensureFirstAdmin } from '../../../server/staff/first-admin.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  clearClaims,
  createTestContext,
  DIALECTS,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { partOf } from '../support/agreement-link.ts'
import { fileClaim } from '../support/claims.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
const SITE = '127.0.0.1'
const BROWSER = 'Mozilla/5.0 (confirmation test)'

/** The confirmation link of a message, and its token. */
function linkOf(eml: string): { url: URL; token: string } {
  const found = /(\S+\/confirm(?:\?lang=\w+)?#token=[A-Za-z0-9_-]+)/.exec(partOf(eml, 'text/plain'))?.[1]
  if (!found) throw new Error('the message has no confirmation link')
  const url = new URL(found)
  return { url, token: url.hash.replace('#token=', '') }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: confirmation from the e-mail's link`, () => {
    let ctx: TestContext
    let cookie: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      cookie = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await ctx.agreementCopies.settled()
      await clearClaims(ctx)
    })

    async function fileClaimNo(i: number, locale = 'en'): Promise<number> {
      const fields = { email: `c${i}@example.com`, phoneNumber: `(212) 555-${1000 + i}` }
      const headers = { Host: `${SITE}:4000` }
      return (await fileClaim(ctx, { app: 'brigit', lang: locale, fields, headers, screenshot: SCREENSHOT }))
        .id
    }

    async function emailOf(claimId: number): Promise<string> {
      ctx.agreementCopies.wake()
      await ctx.agreementCopies.settled()
      const dir = path.join(ctx.dataDir, 'outbox')
      // a message still being written is a dot-file until it is renamed: only whole ones are read
      const emls = fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.eml'))
        .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      expect(emls.length).toBeGreaterThan(0)
      const row = await ctx.db
        .selectFrom('claims')
        .select('email')
        .where('id', '=', claimId)
        .executeTakeFirstOrThrow()
      const eml = emls.find((text) => text.includes(`To: ${row.email}`))
      if (!eml) throw new Error(`no e-mail to claim ${claimId}`)
      return eml
    }

    function confirm(token: unknown) {
      return request(ctx.app)
        .post('/api/confirmations')
        .set({ Host: SITE, Origin: `http://${SITE}`, 'User-Agent': BROWSER })
        .send({ token })
    }

    it("puts a link to the confirmation page in the claimant's copy, on the server's own origin", async () => {
      const id = await fileClaimNo(1)
      const eml = await emailOf(id)
      const { url, token } = linkOf(eml)
      // PUBLIC_URL unset: the address the server listens on, never the Host the claim came with
      expect(url.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(url.origin).not.toBe(`http://${SITE}:4000`)
      expect(url.pathname).toBe('/confirm')
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(partOf(eml, 'text/html')).toContain(`<a href="${url.href}">Confirm it was you</a>`)
    })

    it("writes the link's words in the claimant's language", async () => {
      const id = await fileClaimNo(2, 'es')
      const eml = await emailOf(id)
      expect(partOf(eml, 'text/plain')).toContain('Confírmelo abriendo este enlace')
      expect(partOf(eml, 'text/html')).toMatch(
        /<a href="[^"]+\/confirm\?lang=es#token=[^"]+">Confirme que fue usted<\/a>/,
      )
      expect(linkOf(eml).url.search).toBe('?lang=es')
    })

    it('marks the claim confirmed with the time, address and browser, and seals it in the evidence ledger', async () => {
      const id = await fileClaimNo(3)
      const { token } = linkOf(await emailOf(id))
      const before = Date.now()
      const res = await confirm(token)
      // the refusal's message, if any, says which check turned the link down
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({ alreadyConfirmed: false })
      const confirmedAt = Date.parse(res.body.confirmedAt as string)
      expect(confirmedAt).toBeGreaterThanOrEqual(before - 1000)

      const claim = await ctx.db
        .selectFrom('claims')
        .select(['confirmed_at', 'confirmed_ip', 'confirmed_user_agent'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(new Date(claim.confirmed_at!).toISOString()).toBe(res.body.confirmedAt)
      expect(claim.confirmed_ip).toMatch(/127\.0\.0\.1/)
      expect(claim.confirmed_user_agent).toBe(BROWSER)

      const entries = await ctx.db
        .selectFrom('evidence_ledger')
        .select(['kind', 'detail'])
        .where('subject', '=', `claim:${id}`)
        .orderBy('seq')
        .execute()
      expect(entries.map((entry) => entry.kind)).toEqual(['claim', 'confirmation'])
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([])
    })

    it('names a claim whose confirmation was changed in SQL', async () => {
      const id = await fileClaimNo(6)
      await confirm(linkOf(await emailOf(id)).token).expect(200)
      await ctx.db.updateTable('claims').set({ confirmed_ip: '198.51.100.9' }).where('id', '=', id).execute()
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([
        `claim ${id}: confirmation differs from the one sealed (it was changed)`,
      ])
    })

    it('keeps the first confirmation when the link is used again', async () => {
      const id = await fileClaimNo(4)
      const { token } = linkOf(await emailOf(id))
      const first = await confirm(token).expect(200)
      const second = await confirm(token).expect(200)
      expect(second.body).toEqual({ confirmedAt: first.body.confirmedAt, alreadyConfirmed: true })
      const entries = await ctx.db
        .selectFrom('evidence_ledger')
        .select('kind')
        .where('subject', '=', `claim:${id}`)
        .where('kind', '=', 'confirmation')
        .execute()
      expect(entries).toHaveLength(1)
    })

    it('refuses a forged token, and a malformed one, confirming nothing', async () => {
      const id = await fileClaimNo(5)
      await emailOf(id)
      const forged = await confirm('A'.repeat(43)).expect(404)
      expect(forged.body.error).toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
      expect(forged.body.error.message).toMatch(/not valid/)
      const malformed = await confirm('<script>').expect(400)
      expect(malformed.body.error.message).toMatch(/incomplete/)
      await confirm(undefined).expect(400)
      const claim = await ctx.db
        .selectFrom('claims')
        .select('confirmed_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(claim.confirmed_at).toBeNull()
    })

    it('refuses a confirmation posted from another site', async () => {
      const res = await request(ctx.app)
        .post('/api/confirmations')
        .set({ Host: SITE, Origin: 'https://evil.example' })
        .send({ token: 'A'.repeat(43) })
        .expect(403)
      expect(res.body.error.code).toBe('CROSS_SITE_REQUEST')
    })

    function staffGet(url: string) {
      return request(ctx.app)
        .get(url)
        .set({ Host: SITE, Origin: `http://${SITE}`, Cookie: cookie })
    }

    async function listed(query: Record<string, string> = {}) {
      const res = await staffGet('/api/staff/apps/brigit/submissions').query(query).expect(200)
      return {
        ids: res.body.data.map((row: { id: number }) => row.id) as number[],
        rows: res.body.data as { id: number; confirmedAt: string | null }[],
        count: res.body.count as number,
      }
    }

    /** Three claims, the middle one confirmed through its e-mail's link. */
    async function threeClaimsOneConfirmed() {
      const ids = [await fileClaimNo(10), await fileClaimNo(11), await fileClaimNo(12)]
      const { token } = linkOf(await emailOf(ids[1]!))
      const { body } = await confirm(token).expect(200)
      return { ids, confirmedId: ids[1]!, confirmedAt: body.confirmedAt as string }
    }

    it('shows staff when each claim was confirmed, and filters the list on it, with and without a search', async () => {
      const { ids, confirmedId, confirmedAt } = await threeClaimsOneConfirmed()
      const all = await listed()
      expect(all.ids).toEqual([...ids].reverse())
      expect(all.rows.map((row) => row.confirmedAt)).toEqual([null, confirmedAt, null])

      expect(await listed({ confirmed: 'yes' })).toMatchObject({ ids: [confirmedId], count: 1 })
      expect(await listed({ confirmed: 'no' })).toMatchObject({ ids: [ids[2], ids[0]], count: 2 })
      // a search of three characters or more (the trigram index) and a shorter one (LIKE)
      expect(await listed({ q: 'c11@', confirmed: 'yes' })).toMatchObject({ ids: [confirmedId], count: 1 })
      expect(await listed({ q: 'c11@', confirmed: 'no' })).toMatchObject({ ids: [], count: 0 })
      expect(await listed({ q: 'c1', confirmed: 'no' })).toMatchObject({ ids: [ids[2], ids[0]], count: 2 })
      expect(await listed({ confirmed: 'no', page: '2', pageSize: '1' })).toMatchObject({
        ids: [ids[0]],
        count: 2,
      })
    })

    it("names the link's claim, and takes \"This wasn't me\" once: on the claim, in the audit log and ledger, and in the dashboard's filter", async () => {
      const [kept, disowned] = [await fileClaimNo(11), await fileClaimNo(12)]
      const { token } = linkOf(await emailOf(disowned))
      const post = (url: string, body: object) =>
        request(ctx.app)
          .post(url)
          .set({ Host: SITE, Origin: `http://${SITE}`, 'User-Agent': BROWSER })
          .send(body)
      const named = await post('/api/confirmations/claim', { token }).expect(200)
      expect(named.body).toMatchObject({
        claimId: disowned,
        appName: 'Brigit',
        confirmedAt: null,
        disownedAt: null,
      })
      const first = await post('/api/confirmations/not-me', { token }).expect(200)
      expect(first.body).toMatchObject({ alreadyDisowned: false })
      const again = await post('/api/confirmations/not-me', { token }).expect(200)
      expect(again.body).toEqual({ disownedAt: first.body.disownedAt, alreadyDisowned: true })
      // a forged token names nothing and changes nothing
      await post('/api/confirmations/not-me', { token: 'A'.repeat(43) }).expect(404)
      await post('/api/confirmations/claim', { token: 'short' }).expect(400)

      const row = await ctx.db
        .selectFrom('claims')
        .select(['disowned_at', 'disowned_ip', 'disowned_user_agent'])
        .where('id', '=', disowned)
        .executeTakeFirstOrThrow()
      expect(new Date(Number(row.disowned_at)).toISOString()).toBe(first.body.disownedAt)
      expect(row.disowned_user_agent).toBe(BROWSER)
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'action', 'actor', 'detail'])
        .where('action', '=', 'claim_disowned')
        .execute()
      expect(audit.map(({ actor, detail }) => [actor, detail])).toEqual([
        ['claimant', `claim ${disowned}: the owner of its e-mail said they did not file it`],
      ])
      const ledger = await ctx.db
        .selectFrom('evidence_ledger')
        .select('subject')
        .where('subject', '=', `audit:${audit[0]!.id}`)
        .execute()
      expect(ledger).toHaveLength(1)
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([])

      expect(await listed({ confirmed: 'disowned' })).toMatchObject({ ids: [disowned], count: 1 })
      expect((await listed()).ids).toEqual([disowned, kept])
      const review = await staffGet(`/api/staff/claims/${disowned}/review`).expect(200)
      expect(review.body.disownedAt).toBe(first.body.disownedAt)
    })

    it('refuses a filter value it does not know', async () => {
      const res = await staffGet('/api/staff/apps/brigit/submissions')
        .query({ confirmed: 'maybe' })
        .expect(400)
      expect(res.body.error.message).toBe(
        '"confirmed" must be "yes", "no" or "disowned" (or left out for all claims)',
      )
    })

    it('gives the confirmation a CSV column, and exports only confirmed claims when asked', async () => {
      const { ids, confirmedId, confirmedAt } = await threeClaimsOneConfirmed()
      const csv = async (query: Record<string, string>) => {
        const res = await staffGet('/api/staff/apps/brigit/export.csv').query(query).expect(200)
        return res.text
          .slice(1)
          .split('\r\n')
          .filter((line) => line !== '')
      }
      const [header, ...rows] = await csv({})
      // after the nine columns of the site the product replaces and the Time Zone
      expect(header!.split(',')[10]).toBe('Confirmed At')
      // Los Angeles' wall clock to the second, as Intl gives it (Sweden's format)
      const wallClock = new Date(confirmedAt).toLocaleString('sv-SE', { timeZone: 'America/Los_Angeles' })
      expect(rows.map((line) => [line.split(',')[0], line.split(',')[10]])).toEqual([
        [String(ids[2]), ''],
        [String(confirmedId), wallClock],
        [String(ids[0]), ''],
      ])
      expect((await csv({ confirmed: 'yes' })).slice(1).map((line) => Number(line.split(',')[0]))).toEqual([
        confirmedId,
      ])
      expect(
        (await csv({ confirmed: 'yes', q: 'example.com' }))
          .slice(1)
          .map((line) => Number(line.split(',')[0])),
      ).toEqual([confirmedId])
    })

    it('counts the confirmed claims for the stats card, and stops counting a purged one', async () => {
      await threeClaimsOneConfirmed()
      const stats = await staffGet('/api/staff/apps/brigit/stats').expect(200)
      expect(stats.body).toMatchObject({ total: 3, confirmed: 1 })
      await clearClaims(ctx)
      const after = await staffGet('/api/staff/apps/brigit/stats').expect(200)
      expect(after.body).toMatchObject({ total: 0, confirmed: 0 })
    })

    it('takes its migration down and up again on a database with claims', async () => {
      const id = await fileClaimNo(20)
      await confirm(linkOf(await emailOf(id)).token).expect(200)
      const db = ctx.db as unknown as Kysely<unknown>
      const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
      expect((await migrator.migrateTo('2026_11_26_1000_create_evidence_ledger')).error).toBeUndefined()
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      // the later migrations' tables came back empty: the staff accounts among them
      await ensureFirstAdmin({
        db: ctx.db,
        adminEmail: ADMIN_EMAIL,
        adminPassword: ADMIN_PASSWORD,
        dataDir: ctx.dataDir,
        siteOrigin: `http://${SITE}`,
      })
      cookie = await loginStaff(ctx.app, { site: SITE })
      expect(await listed()).toMatchObject({ ids: [id], rows: [{ confirmedAt: null }] })
    })
  })
}
