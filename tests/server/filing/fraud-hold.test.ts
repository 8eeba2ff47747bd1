import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Batch, BatchCandidates, BatchClaim } from '../../../src/api/filing-batches.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { FRAUD_TESTS, fraudStanding } from '../../../src/fraud-config.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { clearOfFraud, deviceId, fileClaimant, person, scoreAll } from '../support/fraud-claims.ts'
import { moveClaimTo } from '../support/claims.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { pdfText } from '../support/pdf-text.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { asBuffer, unzip } from '../support/unzip.ts'

const SITE = 'fraud-hold.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const APP = 'earnin'
const DAY_MS = 24 * 60 * 60 * 1000

interface FraudJson {
  claimId: number
  score: number | null
  scoredAt: string | null
  reasons: { code: string; points: number; text: string; related: number[] }[]
  clearance: {
    by: string
    at: string
    note: string
    scoreSeen: number
    auditEntry: number
    sealedRecord: string
    ledgerEntry: { seal: string; subject: string }
  } | null
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the fraud hold on notice and filing batches`, () => {
    let ctx: TestContext
    let admin: string
    const ring: number[] = []
    let genuine: number
    let unscored: number
    let cleared: { auditId: number; clearedAt: number; score: number }
    let filingBatch: number
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-fraud-hold-'))

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      // a ring: ten names on one browser, each from an address of its own; and a claimant on their own
      for (let i = 0; i < 10; i++) {
        const who = person(`Ring${String.fromCharCode(65 + i)}`, `Member${String.fromCharCode(75 + i)}`)
        ring.push(
          await fileClaimant(ctx, { who, app: APP, device: deviceId(1), from: `198.51.${100 + i}.7` }),
        )
      }
      genuine = await fileClaimant(ctx, {
        who: person('Maile', 'Kahale'),
        app: APP,
        device: deviceId(2),
        from: '192.0.2.50',
      })
      for (const id of [...ring, genuine]) await moveClaimTo(ctx, { id, app: APP, status: 'approved' })
      await scoreAll(ctx)
      // filed and approved after the scores ran: not scored yet
      unscored = await fileClaimant(ctx, {
        who: person('Keoni', 'Akana'),
        app: APP,
        device: deviceId(3),
        from: '192.0.2.77',
      })
      await moveClaimTo(ctx, { id: unscored, app: APP, status: 'approved' })
    }, 120_000)
    afterAll(async () => {
      await ctx?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    const api = `/api/staff/apps/${APP}/batches`
    const get = (url: string) => request(ctx.app).get(url).set({ Host: SITE }).set('Cookie', admin)
    const post = (url: string, body: object) =>
      request(ctx.app).post(url).set(SAME_SITE).set('Cookie', admin).send(body)
    const candidates = async (kind: string) =>
      (await get(`${api}/candidates?kind=${kind}`).expect(200)).body as BatchCandidates
    const membersOf = async (batchId: number) =>
      ((await get(`${api}/${batchId}/claims`).expect(200)).body as BatchClaim[]).map((claim) => claim.claimId)
    const scoreOf = async (id: number) =>
      Number(
        (
          await ctx.db
            .selectFrom('claims')
            .select('fraud_score')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).fraud_score,
      )

    it('holds the ring and the claim not scored yet out of a notice batch, and lets the genuine claim in', async () => {
      for (const id of ring) expect(fraudStanding(ctx.fraud(APP), await scoreOf(id))).toBe('hold')
      expect(fraudStanding(ctx.fraud(APP), await scoreOf(genuine))).toBe('clear')
      const found = await candidates('notice')
      expect([found.ready, found.held, found.unscored, found.lacking, found.approved]).toEqual([
        1, 10, 1, 0, 12,
      ])
      expect(found.claims.map((claim) => claim.claimId)).toEqual([genuine])

      const refused = await post(api, { kind: 'notice', claimIds: [genuine, ring[0], unscored] }).expect(422)
      expect((refused.body as ErrorBody).error.details!.problems).toEqual([
        `claim ${ring[0]}: held for fraud review (score ${await scoreOf(ring[0]!)}, at or below 600) until a decider clears it`,
        `claim ${unscored}: not scored for fraud yet; it can go in once its score is in`,
      ])
      // none of them is one a cure request can help
      expect((refused.body as ErrorBody).error.details!.claimIds).toEqual([])

      const started = (await post(api, { kind: 'notice' }).expect(202)).body as Batch
      expect(started.claimCount).toBe(1)
      expect(await membersOf(started.id)).toEqual([genuine])
      await ctx.batchBuilder.runDue()
    })

    it('lets a held claim into the next notice batch once a decider clears it, and the others stay held', async () => {
      cleared = await clearOfFraud(ctx, {
        claimId: ring[0]!,
        note: 'Known household; account confirmed by phone',
      })
      const found = await candidates('notice')
      expect([found.ready, found.held, found.unscored]).toEqual([1, 9, 1])
      const started = (await post(api, { kind: 'notice' }).expect(202)).body as Batch
      expect(await membersOf(started.id)).toEqual([ring[0]])
      await ctx.batchBuilder.runDue()
      expect((await get(`${api}/${started.id}`).expect(200)).body.status).toBe('ready')
    })

    it("names the fraud checks in counsel's affirmation of a filing batch, with how many a reviewer cleared", async () => {
      // both notices went out 61 days ago
      const back = new Date(Date.now() - 61 * DAY_MS).toISOString().slice(0, 10)
      await ctx.db
        .updateTable('filing_batches')
        .set({ created_at: Date.now() - 62 * DAY_MS, sent_on: back, sent_method: 'mail', sent_tracking: '' })
        .where('kind', '=', 'notice')
        .execute()
      expect((await candidates('filing')).ready).toBe(2)
      const started = (await post(api, { kind: 'filing' }).expect(202)).body as Batch
      filingBatch = started.id
      await ctx.batchBuilder.runDue()
      expect((await get(`${api}/${filingBatch}`).expect(200)).body.status).toBe('ready')
      const zip = (await asBuffer(get(`${api}/${filingBatch}/download`)).expect(200)).body as Buffer
      const into = path.join(dir, 'filing')
      fs.mkdirSync(into)
      await unzip(zip, into)
      // a line that breaks after a hyphen reads as "e- mail"
      const statement = (await pdfText(fs.readFileSync(path.join(into, 'counsel-affirmation.pdf')))).replace(
        /- /g,
        '-',
      )
      // the text it had before stays
      expect(statement).toContain('to the best of my knowledge after reasonable inquiry')
      expect(statement).toContain('Fraud checks')
      expect(statement).toContain(
        "Each claimant in this batch was scored against the firm's fraud tests (device, network, e-mail, phone, name and address, behaviour, screenshot and the respondent's list)",
      )
      expect(statement).toContain(
        "None of the 2 claimants is at or below the hold threshold of 600 points without a reviewer's clearance; 1 claimant was cleared by a reviewer after review.",
      )
      for (const code of FRAUD_TESTS) {
        const test = ctx.fraud(APP).tests[code]
        expect(statement).toContain(`${test.label} (${test.weight} points)`)
      }
    })

    it("puts the claim's score, reasons and clearance in fraud.json of its evidence bundle, the batch's among them", async () => {
      const res = await asBuffer(get(`/api/staff/claims/${ring[0]}/evidence.zip`)).expect(200)
      const into = path.join(dir, 'bundle')
      fs.mkdirSync(into)
      expect(await unzip(res.body as Buffer, into)).toContain('fraud.json')
      const fraud = JSON.parse(fs.readFileSync(path.join(into, 'fraud.json'), 'utf8')) as FraudJson
      expect(fraud.claimId).toBe(ring[0])
      expect(fraud.score).toBe(cleared.score)
      expect(fraud.scoredAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
      const shared = fraud.reasons.find((reason) => reason.code === 'device_shared')!
      expect(shared).toEqual({
        code: 'device_shared',
        points: 400,
        text: 'This browser also sent claims under 9 other names.',
        related: expect.arrayContaining(ring.slice(1)),
      })
      expect(fraud.score).toBe(1000 - fraud.reasons.reduce((sum, reason) => sum + reason.points, 0))
      expect(fraud.clearance).toMatchObject({
        by: ADMIN_EMAIL,
        at: new Date(cleared.clearedAt).toISOString(),
        note: 'Known household; account confirmed by phone',
        scoreSeen: cleared.score,
        auditEntry: cleared.auditId,
      })
      // the decision as sealed: its SHA-256 is the seal of its ledger entry, and it repeats the clearance
      const { sealedRecord, ledgerEntry } = fraud.clearance!
      expect(crypto.createHash('sha256').update(sealedRecord).digest('hex')).toBe(ledgerEntry.seal)
      expect(ledgerEntry.subject).toBe(`audit:${cleared.auditId}`)
      expect(JSON.parse(sealedRecord)).toMatchObject({
        action: 'fraud_cleared',
        actor: ADMIN_EMAIL,
        detail: expect.stringContaining('Known household; account confirmed by phone'),
      })

      // each row's bundle in the batch's "Evidence bundles (ZIP)" holds its own
      const all = (await asBuffer(get(`${api}/${filingBatch}/evidence`)).expect(200)).body as Buffer
      const rows = path.join(dir, 'rows')
      fs.mkdirSync(rows)
      const names = await unzip(all, rows)
      expect(names).toHaveLength(2)
      for (const name of names) {
        const inner = path.join(rows, name.replace('.zip', ''))
        fs.mkdirSync(inner)
        expect(await unzip(fs.readFileSync(path.join(rows, name)), inner)).toContain('fraud.json')
      }
    })

    it("fails a batch whose claim the company's list named after it started, and frees the claim", async () => {
      const who = person('Noelani', 'Keawe')
      const late = await fileClaimant(ctx, { who, app: APP, device: deviceId(4), from: '192.0.2.88' })
      await moveClaimTo(ctx, { id: late, app: APP, status: 'approved' })
      await scoreAll(ctx)
      const started = (await post(api, { kind: 'notice', claimIds: [late] }).expect(202)).body as Batch
      await request(ctx.app)
        .post(`${api}/respondent-list?list=not_customer`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .set('Content-Type', 'text/csv')
        .send(`E-mail\r\n${who.email}\r\n`)
        .expect(200)
      await scoreAll(ctx)
      await ctx.batchBuilder.runDue()
      const failed = (await get(`${api}/${started.id}`).expect(200)).body as Batch
      expect([failed.status, failed.problem]).toEqual([
        'failed',
        `the fraud hold took claims after the batch started: claim ${late}: held for fraud review (score ${await scoreOf(late)}, at or below 600) until a decider clears it`,
      ])
      const claim = await ctx.db
        .selectFrom('claims')
        .select('notice_batch_id')
        .where('id', '=', late)
        .executeTakeFirstOrThrow()
      expect(claim.notice_batch_id).toBeNull()
      expect((await candidates('notice')).held).toBe(10)
    })

    it('verifies the clearance against its sealed audit entry, and names a clearance changed afterwards', async () => {
      const verify = (claimId?: number) =>
        verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey, claimId })
      expect(await verify()).toMatchObject({ fraudClearances: 1, problems: [] })
      expect(await verify(ring[0])).toMatchObject({ fraudClearances: 1, problems: [] })
      const changed = `claim ${ring[0]}: fraud clearance differs from audit entry ${cleared.auditId}, which sealed it (the clearance was changed)`
      await ctx.db
        .updateTable('fraud_scores')
        .set({ cleared_note: 'Cleared by the firm' })
        .where('claim_id', '=', ring[0]!)
        .execute()
      expect((await verify()).problems).toEqual([changed])
      expect((await verify(ring[0])).problems).toEqual([changed])
      await ctx.db
        .updateTable('fraud_scores')
        .set({ cleared_note: 'Known household; account confirmed by phone', cleared_score: 900 })
        .where('claim_id', '=', ring[0]!)
        .execute()
      expect((await verify()).problems).toEqual([changed])
      // a hold cleared with no sealed decision behind it
      await ctx.db
        .updateTable('fraud_scores')
        .set({ cleared_score: cleared.score, cleared_audit_id: null })
        .where('claim_id', '=', ring[0]!)
        .execute()
      await ctx.db
        .updateTable('claims')
        .set({ fraud_cleared_at: Date.now() })
        .where('id', '=', ring[1]!)
        .execute()
      expect((await verify()).problems).toEqual([
        `claim ${ring[1]}: cleared of its fraud hold, but no audit entry seals the clearance`,
        `claim ${ring[0]}: cleared of its fraud hold, but no audit entry seals the clearance`,
      ])
    })
  })
}
