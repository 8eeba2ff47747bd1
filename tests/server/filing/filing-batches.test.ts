import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { Batch, BatchCandidates, BatchClaim } from '../../../src/api/filing-batches.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import type { StaffPage, StaffClaimRow } from '../../../src/api/staff.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { canonicalJson } from '../../../server/evidence/canonical-json.ts'
import { openAgreementsByLink } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { pdfText } from '../support/pdf-text.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'
import { seedClaim } from '../support/claims.ts'
import { asBuffer, sha256sum, unzip } from '../support/unzip.ts'

const SITE = 'batches.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DAY_MS = 24 * 60 * 60 * 1000

interface Manifest {
  batch: number
  batchHash: string
  files: { name: string; sha256: string; bytes: number }[]
  claims: { rowId?: string; claimId: number; seal: string; evidenceBundle?: string }[]
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: notices of dispute and filing batches`, () => {
    let ctx: TestContext
    let admin: string
    let withAddress: number[]
    let noAddress: number
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-batches-'))

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      withAddress = []
      // three claimants who filed the main form (their address) and Earnin's Step 2 through its link; one
      // who filed Step 2 only; each claim approved
      // (a household: three people of their own names, not one name varied, which the fraud hold keeps out)
      for (const [n, firstName] of [
        [1, 'Jane'],
        [2, 'Kai'],
        [3, 'Lani'],
      ] as const) {
        const email = `filer${n}@mail.test`
        const phone = `(808) 555-010${n}`
        const lastName = `Filer${n}`
        const intake = await request(ctx.app)
          .post('/api/intake')
          .send(makeIntakeData({ email, phone, firstName, lastName, cashAdvanceApps: ['earnin'] }))
          .expect(201)
        withAddress.push(
          await approvedEarninClaim(
            { email, phoneNumber: phone, firstName, lastName },
            intake.body as CreatedIntake,
          ),
        )
      }
      noAddress = await approvedEarninClaim({
        email: 'nomain@mail.test',
        phoneNumber: '(808) 555-0199',
        lastName: 'Nomain',
      })
      // a batch takes a claim once its fraud score is in
      await ctx.fraudScores.runDue()
    })
    afterAll(async () => {
      await ctx?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    const approvedEarninClaim = async (fields: Record<string, unknown>, intake?: CreatedIntake) =>
      (await seedClaim(ctx, { app: 'earnin', status: 'approved', fields, intake })).id

    const api = '/api/staff/apps/earnin/batches'
    const post = (url: string, body: unknown, cookie = admin) =>
      request(ctx.app)
        .post(url)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body as object)
    const get = (url: string, cookie = admin) =>
      request(ctx.app).get(url).set({ Host: SITE }).set('Cookie', cookie)
    const candidates = async (kind: string) =>
      (await get(`${api}/candidates?kind=${kind}`).expect(200)).body as BatchCandidates
    const build = async () => {
      await ctx.batchBuilder.runDue()
    }
    const batchOf = async (id: number) => (await get(`${api}/${id}`).expect(200)).body as Batch
    const download = async (id: number, into: string) => {
      const zip = (await asBuffer(get(`${api}/${id}/download`)).expect(200)).body as Buffer
      fs.mkdirSync(into, { recursive: true })
      return { zip, names: await unzip(zip, into) }
    }
    const countAudit = async (action: string) =>
      Number(
        (
          await ctx.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('action', '=', action)
            .executeTakeFirstOrThrow()
        ).n,
      )
    const statusOf = async (id: number) =>
      (
        await ctx.db
          .selectFrom('claims')
          .select('review_status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).review_status

    let noticeBatch: number
    let filingBatch: number

    it('lists approved claims for a notice, naming what one without an address lacks', async () => {
      const found = await candidates('notice')
      expect([found.ready, found.lacking, found.approved]).toEqual([3, 1, 4])
      expect(found.claims.find((claim) => claim.claimId === noAddress)!.missing).toEqual([
        `claim ${noAddress}: no street address`,
        `claim ${noAddress}: no city`,
        `claim ${noAddress}: no state`,
        `claim ${noAddress}: no ZIP code`,
      ])
    })

    it('refuses a batch naming a claim that lacks a field, with each claim to cure, and keeps nothing', async () => {
      const res = await post(api, { kind: 'notice', claimIds: [withAddress[0], noAddress] }).expect(422)
      const { error } = res.body as ErrorBody
      expect(error.details!.problems[0]).toBe(`claim ${noAddress}: no street address`)
      expect(error.details!.claimIds).toEqual([noAddress])
      expect((await get(api).expect(200)).body.batches).toEqual([])
      expect(await countAudit('batch_started')).toBe(0)
    })

    it('builds a notice batch: one PDF per claimant, the combined PDF, the mailing log and a manifest that recomputes', async () => {
      const started = (await post(api, { kind: 'notice' }).expect(202)).body as Batch
      noticeBatch = started.id
      expect([started.status, started.claimCount]).toEqual(['building', 3])
      // a claim is in one notice batch only
      const again = await post(api, { kind: 'notice', claimIds: [withAddress[0]] }).expect(409)
      expect((again.body as ErrorBody).error.message).toBe(
        `claim ${withAddress[0]}: already in notice batch ${noticeBatch}`,
      )
      await build()
      const ready = await batchOf(noticeBatch)
      expect(ready.status).toBe('ready')
      const into = path.join(dir, 'notice')
      const { zip, names } = await download(noticeBatch, into)
      expect(ready.sha256).toBe(sha256sum(writeTo(path.join(dir, 'notice.zip'), zip)))
      expect(names.filter((name) => name.startsWith('notices/')).sort()).toEqual(
        withAddress.map((id) => `notices/notice-${id}.pdf`).sort(),
      )
      expect(names).toEqual(
        expect.arrayContaining(['notices-combined.pdf', 'mailing-log.csv', 'manifest.json']),
      )
      const manifest = JSON.parse(fs.readFileSync(path.join(into, 'manifest.json'), 'utf8')) as Manifest
      for (const file of manifest.files) expect(sha256sum(path.join(into, file.name))).toBe(file.sha256)
      expect(manifest.claims.map((claim) => claim.claimId)).toEqual(withAddress)
      expect(manifest.claims.every((claim) => /^[0-9a-f]{64}$/.test(claim.seal))).toBe(true)
      const notice = await pdfText(fs.readFileSync(path.join(into, `notices/notice-${withAddress[0]}.pdf`)))
      expect(notice).toContain('Notice of Dispute')
      expect(notice).toContain('Activehours, Inc.')
      expect(notice).toContain('123 Kalakaua Ave')
      const log = fs.readFileSync(path.join(into, 'mailing-log.csv'), 'utf8')
      expect(log.split('\r\n')[1]).toContain(`${withAddress[0]},Jane Filer1,123 Kalakaua Ave`)
      expect(await countAudit('batch_sealed')).toBe(1)
    })

    it('says why no claim can be filed before any notice went out: every approved claim lacks its notice', async () => {
      const filing = await candidates('filing')
      expect([filing.ready, filing.waiting, filing.noNotice, filing.approved]).toEqual([0, 0, 4, 4])
    })

    it('marks the notice batch sent once, refusing a day in the future', async () => {
      const url = `${api}/${noticeBatch}/sent`
      const tomorrow = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 10)
      expect((await post(url, { sentOn: tomorrow, method: 'mail' }).expect(400)).body.error.message).toMatch(
        /^the notices cannot have gone out after today/,
      )
      const today = (await batchOf(noticeBatch)).createdAt
      const sentOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(today)
      await post(url, { sentOn, method: 'certified_mail', tracking: '9407 1000 0000 0000 0001' }).expect(204)
      await post(url, { sentOn, method: 'mail' }).expect(409)
      const sent = (await batchOf(noticeBatch)).sent!
      expect(sent.tracking).toBe('9407 1000 0000 0000 0001')
      const filing = await candidates('filing')
      expect([filing.ready, filing.waiting, filing.nextMayFileFrom]).toEqual([0, 3, sent.mayFileFrom])
      // the claim without an address is in no notice batch
      expect(filing.noNotice).toBe(1)
      // the waiting period holds: no filing batch yet
      expect(
        (await post(api, { kind: 'filing', claimIds: [withAddress[0]] }).expect(422)).body.error.details
          .problems,
      ).toEqual([`claim ${withAddress[0]}: may be filed from ${sent.mayFileFrom}`])
    })

    it("imports each claimant's certified mail number only from a file without faults, and the claim shows its own", async () => {
      const url = `${api}/${noticeBatch}/tracking-numbers`
      const send = (text: string) =>
        request(ctx.app)
          .post(url)
          .set(SAME_SITE)
          .set('Cookie', admin)
          .set('Content-Type', 'text/csv')
          .send(text)
      const [first, second, third] = withAddress as [number, number, number]
      const bad = await send(
        `Claim ID,Certified Mail Number\r\n${first},9400 1000 0000 0000 0001\r\n${noAddress},9400 1000 0000 0000 0002\r\n${second},\r\n${third},9400 1000 0000 0000 0001\r\n`,
      ).expect(400)
      expect((bad.body as ErrorBody).error.details!.problems).toEqual([
        `line 3: claim ${noAddress} is not in this batch`,
        'line 4: no tracking number',
        'line 5: tracking number 9400 1000 0000 0000 0001 is on line 2 too',
      ])
      expect((await batchOf(noticeBatch)).trackingNumbers).toBe(0)
      const good = withAddress.map((id, index) => `${id},9400 1000 0000 0000 000${index + 1}`).join('\r\n')
      expect((await send(`Claim ID,Tracking Number\r\n${good}\r\n`).expect(200)).body).toEqual({
        imported: 3,
      })
      expect((await batchOf(noticeBatch)).trackingNumbers).toBe(3)
      const review = (await get(`/api/staff/claims/${second}/review`).expect(200)).body as ClaimReview
      expect(review.filing!.noticeTracking).toBe('9400 1000 0000 0000 0002')
      expect(await countAudit('tracking_numbers_imported')).toBe(1)
    })

    it('past the waiting period, builds a filing batch whose spreadsheet, demands, statement and manifest agree', async () => {
      // the test's clock: the notices went out 61 days ago
      const back = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10)
      await ctx.db
        .updateTable('filing_batches')
        .set({ created_at: Date.now() - 62 * DAY_MS, sent_on: back(61) })
        .where('id', '=', noticeBatch)
        .execute()
      const due = await candidates('filing')
      expect(due.ready).toBe(3)
      const started = (await post(api, { kind: 'filing' }).expect(202)).body as Batch
      filingBatch = started.id
      expect(started.fees).toEqual({
        claimant: 3 * 0 + 3125,
        respondent: 8125 + 3 * 325,
        note: expect.any(String),
      })
      const again = await post(api, { kind: 'filing', claimIds: [withAddress[1]] }).expect(409)
      expect((again.body as ErrorBody).error.message).toBe(
        `claim ${withAddress[1]}: already in filing batch ${filingBatch}, which is open`,
      )
      // while it is built, its claims move only with it
      const claim = await ctx.db
        .selectFrom('claims')
        .select('review_version')
        .where('id', '=', withAddress[1]!)
        .executeTakeFirstOrThrow()
      const moved = await post(`/api/staff/claims/${withAddress[1]}/moves`, {
        to: 'withdrawn',
        version: Number(claim.review_version),
      }).expect(409)
      expect((moved.body as ErrorBody).error.message).toBe(
        `the claim is in filing batch ${filingBatch}: it moves with the batch`,
      )
      await build()
      expect((await batchOf(filingBatch)).status).toBe('ready')
      for (const id of withAddress) expect(await statusOf(id)).toBe('filed')

      const into = path.join(dir, 'filing')
      const { names } = await download(filingBatch, into)
      const rows = fs
        .readFileSync(path.join(into, 'spreadsheet.csv'), 'utf8')
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      const golden = fs.readFileSync(
        path.resolve(import.meta.dirname, '../../fixtures/filing/aaa-earnin.csv'),
        'utf8',
      )
      expect(rows[0]).toBe(golden.replace(/^\ufeff/, '').split('\r\n')[0])
      const demands = names.filter((name) => name.startsWith('demands/'))
      expect(demands.length).toBe(rows.length - 1)
      const manifest = JSON.parse(fs.readFileSync(path.join(into, 'manifest.json'), 'utf8')) as Manifest
      expect(demands.sort()).toEqual(manifest.claims.map((claim) => `demands/${claim.rowId}.pdf`).sort())
      for (const file of manifest.files) expect(sha256sum(path.join(into, file.name))).toBe(file.sha256)
      expect(manifest.files.map((file) => file.name)).toEqual(
        expect.arrayContaining([
          'spreadsheet.xlsx',
          'representatives.csv',
          'arbitration-clause.txt',
          'counsel-affirmation.pdf',
        ]),
      )
      // the batch hash recomputes from the manifest's lists, and counsel's affirmation names it
      const listed = manifest.files.filter((file) => file.name !== 'counsel-affirmation.pdf')
      const hash = sha256Text(
        canonicalJson({
          batch: filingBatch,
          files: listed,
          claims: manifest.claims.map(({ rowId, claimId }) => ({ rowId: rowId!, claimId })),
        }),
      )
      expect(manifest.batchHash).toBe(hash)
      expect((await batchOf(filingBatch)).batchHash).toBe(hash)
      const statement = await pdfText(fs.readFileSync(path.join(into, 'counsel-affirmation.pdf')))
      expect(statement).toContain(hash)
      expect(statement).toContain('Claimants: 3')
      const demand = await pdfText(fs.readFileSync(path.join(into, demands[0]!)))
      expect(demand).toContain('Demand for Arbitration')
      // the amount claimed (forms/base/filing.json) and lead counsel's signature block, dated
      expect(demand).toContain('Amount claimed: $1,000.00')
      expect(demand).toContain('/s/ Jordan A. Reyes, Esq.')
      expect(demand).toContain('Jordan A. Reyes, Esq., Bar No. CA 000000')
      expect(demand).toMatch(/Dated: [A-Z][a-z]+ \d{1,2}, \d{4}/)
      expect(manifest.claims.map((claim) => claim.evidenceBundle)).toEqual(
        manifest.claims.map((claim) => `${claim.rowId}-evidence.zip`),
      )
    })

    it('answers the first 100 problems of a file with many and their count, importing nothing', async () => {
      const claims = (await get(`${api}/${filingBatch}/claims`).expect(200)).body as BatchClaim[]
      const good = claims.map((claim, index) => `${claim.rowId},01-26-100${index + 1}`)
      const bad = Array.from({ length: 250 }, (_, index) => {
        const n = String(index + 1).padStart(5, '0')
        return `B999-${n},02-26-${n}`
      })
      const res = await request(ctx.app)
        .post(`${api}/${filingBatch}/case-numbers`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .set('Content-Type', 'text/csv')
        .send(`Unique Claimant ID,Case Number\r\n${[...good, ...bad].join('\r\n')}\r\n`)
        .expect(400)
      const { details, message } = (res.body as ErrorBody).error
      expect(details!.problems).toHaveLength(100)
      expect(details!.problems[0]).toBe(`line ${good.length + 2}: row ID B999-00001 is not in this batch`)
      expect(details!.problems[99]).toBe(`line ${good.length + 101}: row ID B999-00100 is not in this batch`)
      expect(details!.problemCount).toBe(250)
      expect(message).toMatch(/\n… and 150 more$/)
      expect((await batchOf(filingBatch)).caseNumbers).toBe(0)
    })

    it('imports case numbers only from a file without faults, naming each faulty line', async () => {
      const claims = (await get(`${api}/${filingBatch}/claims`).expect(200)).body as BatchClaim[]
      const url = `${api}/${filingBatch}/case-numbers`
      const send = (text: string) =>
        request(ctx.app)
          .post(url)
          .set(SAME_SITE)
          .set('Cookie', admin)
          .set('Content-Type', 'text/csv')
          .send(text)
      const bad = await send(
        `Unique Claimant ID,Case Number\r\n${claims[0]!.rowId},01-26-0001\r\nB999-00001,01-26-0002\r\n${claims[0]!.rowId},01-26-0003\r\n${claims[1]!.rowId},01-26-0001\r\n`,
      ).expect(400)
      expect((bad.body as ErrorBody).error.details!.problems).toEqual([
        'line 3: row ID B999-00001 is not in this batch',
        `line 4: row ID ${claims[0]!.rowId} is on line 2 too`,
        'line 5: case number 01-26-0001 is on line 2 too',
      ])
      expect((await batchOf(filingBatch)).caseNumbers).toBe(0)
      const good = claims.map((claim, index) => `${claim.rowId},01-26-000${index + 1}`).join('\r\n')
      expect((await send(`Unique Claimant ID,Case Number\r\n${good}\r\n`).expect(200)).body).toEqual({
        imported: 3,
      })
      expect((await batchOf(filingBatch)).caseNumbers).toBe(3)
      const stored = await ctx.db
        .selectFrom('claims')
        .select('case_number')
        .where('id', '=', claims[0]!.claimId)
        .executeTakeFirstOrThrow()
      expect(stored.case_number).toBe('01-26-0001')
      expect(await countAudit('case_numbers_imported')).toBe(1)
    })

    it('takes certified mail numbers only onto a notice batch', async () => {
      const refused = await request(ctx.app)
        .post(`${api}/${filingBatch}/tracking-numbers`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .set('Content-Type', 'text/csv')
        .send(`Claim ID,Tracking Number\r\n${withAddress[0]},9400\r\n`)
        .expect(409)
      expect((refused.body as ErrorBody).error.message).toBe(
        `batch ${filingBatch} is a filing batch: certified mail numbers go onto a notice batch marked sent`,
      )
    })

    it('shows each claim its notice, row ID and case number, and the dashboard finds them by batch and case number', async () => {
      const claims = (await get(`${api}/${filingBatch}/claims`).expect(200)).body as BatchClaim[]
      const review = (await get(`/api/staff/claims/${claims[0]!.claimId}/review`).expect(200))
        .body as ClaimReview
      const { sent } = await batchOf(noticeBatch)
      expect(review.filing).toEqual({
        noticeBatchId: noticeBatch,
        noticeSentOn: sent!.on,
        mayFileFrom: sent!.mayFileFrom,
        noticeTracking: '9400 1000 0000 0000 0001',
        filingBatchId: filingBatch,
        rowId: claims[0]!.rowId,
        caseNumber: '01-26-0001',
      })
      const listed = async (query: Record<string, string>) =>
        (
          (await get('/api/staff/apps/earnin/submissions').query(query).expect(200))
            .body as StaffPage<StaffClaimRow>
        ).data
          .map((claim) => claim.id)
          .sort((a, b) => a - b)
      expect(await listed({ batch: String(filingBatch) })).toEqual(withAddress)
      expect(await listed({ batch: String(noticeBatch) })).toEqual(withAddress)
      expect(await listed({ case: '01-26-0001' })).toEqual([claims[0]!.claimId])
      expect(await listed({ case: 'no-such-case' })).toEqual([])
      // the claimant's own page names the case number of their filed claim, and nothing of the review
      const n = withAddress.indexOf(claims[0]!.claimId) + 1
      const { status } = await openAgreementsByLink(ctx, {
        email: `filer${n}@mail.test`,
        phone: `(808) 555-010${n}`,
      })
      expect(status.claims.find((claim) => claim.claimId === claims[0]!.claimId)).toEqual({
        claimId: claims[0]!.claimId,
        app: 'earnin',
        appName: 'Earnin',
        state: 'filed',
        caseNumber: '01-26-0001',
      })

      await get('/api/staff/apps/earnin/submissions?batch=seven').expect(400)
    })

    it("streams every row's evidence bundle in one ZIP", async () => {
      const zip = (await asBuffer(get(`${api}/${filingBatch}/evidence`)).expect(200)).body as Buffer
      const into = path.join(dir, 'evidence')
      fs.mkdirSync(into)
      const names = await unzip(zip, into)
      const claims = (await get(`${api}/${filingBatch}/claims`).expect(200)).body as BatchClaim[]
      expect(names.sort()).toEqual(claims.map((claim) => `${claim.rowId}-evidence.zip`).sort())
      const inner = path.join(into, 'one')
      fs.mkdirSync(inner)
      expect(await unzip(fs.readFileSync(path.join(into, names[0]!)), inner)).toEqual(
        expect.arrayContaining(['agreement.pdf', 'record.json', 'filing.json']),
      )
    })

    it('leaves building, sending and importing to accounts with the decide right', async () => {
      const viewer = await signInNewAccount(ctx, SITE, {
        email: 'viewer@firm.test',
        password: 'viewer password 1',
        name: 'Vi Viewer',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: false }],
      })
      await get(api, viewer).expect(200)
      await post(api, { kind: 'notice' }, viewer).expect(403)
      await get(`${api}/${filingBatch}/download`, viewer).expect(403)
    })
  })
}

function writeTo(file: string, bytes: Buffer): string {
  fs.writeFileSync(file, bytes)
  return file
}

function sha256Text(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}
