import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { productScript } from '../support/compiled-product.ts'
import { sha256sum, unzip } from '../support/unzip.ts'
import {
  ADMIN_EMAIL,
  createTestContext,
  DIALECTS,
  makeClaimData,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'bundle.test'
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

describe.each(DIALECTS)('%s: the evidence bundle of a claim', (dialect) => {
  let ctx: TestContext
  let claimId: number
  let cookie: string
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bundle-'))
  beforeAll(async () => {
    ctx = await createTestContext(dialect)
    const filed = await request(ctx.app)
      .post('/api/forms/brigit/submissions')
      .field('data', JSON.stringify(makeClaimData()))
      .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
      .expect(201)
    claimId = Number(filed.body.id)
    cookie = await loginStaff(ctx.app, { site: SITE })
  })
  afterAll(async () => {
    await ctx?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  function downloadBundle(id: number | string, session: string | undefined = cookie) {
    const req = request(ctx.app)
      .get(`/api/staff/claims/${id}/evidence.zip`)
      .set({ Host: SITE })
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => done(null, Buffer.concat(chunks)))
      })
    return session ? req.set('Cookie', session) : req
  }

  it('unzips to the agreement, signature, screenshot, record, ledger and VERIFY.txt, whose hashes recompute with sha256sum', async () => {
    const res = await downloadBundle(claimId).expect(200)
    expect(res.headers['content-type']).toBe('application/zip')
    expect(res.headers['content-disposition']).toBe(`attachment; filename=claim-${claimId}-evidence.zip`)
    const names = await unzip(res.body as Buffer, dir)
    expect(names).toEqual([
      'agreement.pdf',
      'agreement.html',
      'signature.png',
      'screenshot.png',
      'record.json',
      'ledger.json',
      'review.json',
      'fraud.json',
      'VERIFY.txt',
    ])

    const record = JSON.parse(fs.readFileSync(path.join(dir, 'record.json'), 'utf8'))
    const ledger = JSON.parse(fs.readFileSync(path.join(dir, 'ledger.json'), 'utf8')) as {
      subject: string
      kind: string
      seal: string
    }[]
    const stored = await ctx.db
      .selectFrom('agreement_records')
      .selectAll()
      .where('claim_id', '=', claimId)
      .executeTakeFirstOrThrow()
    // the seal is the SHA-256 of record.json as it is in the bundle
    const sealed = ledger.find((entry) => entry.subject === `claim:${claimId}` && entry.kind === 'claim')
    expect(sha256sum(path.join(dir, 'record.json'))).toBe(sealed!.seal)
    expect(sha256sum(path.join(dir, 'screenshot.png'))).toBe(record.screenshot.sha256)
    expect(sha256sum(path.join(dir, 'agreement.html'))).toBe(stored.sha256)
    expect(record).toMatchObject({
      kind: 'claim',
      id: claimId,
      app: 'brigit',
      fields: { email: 'jane.doe@example.com' },
    })
    expect(fs.readFileSync(path.join(dir, 'signature.png')).toString('base64')).toBe(
      stored.signature.slice(stored.signature.indexOf(',') + 1),
    )
    expect(fs.readFileSync(path.join(dir, 'agreement.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(fs.readFileSync(path.join(dir, 'VERIFY.txt'), 'utf8')).toContain('sha256sum record.json')
  })

  it("holds the claim's review: every move with its sealed audit record and ledger entry, without the notes", async () => {
    const filed = await request(ctx.app)
      .post('/api/forms/brigit/submissions')
      .field(
        'data',
        JSON.stringify(makeClaimData({ phoneNumber: '(415) 555-0177', email: 'moved@example.com' })),
      )
      .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
      .expect(201)
    const moved = Number(filed.body.id)
    const moveTo = (body: Record<string, unknown>) =>
      request(ctx.app)
        .post(`/api/staff/claims/${moved}/moves`)
        .set({ Host: SITE, Origin: `http://${SITE}`, Cookie: cookie })
        .send(body)
        .expect(200)
    await moveTo({ to: 'in_review', version: 0 })
    await moveTo({ to: 'deficient', reason: 'name_differs', note: 'internal: called her twice', version: 1 })

    const into = fs.mkdtempSync(path.join(dir, 'review-'))
    await unzip((await downloadBundle(moved).expect(200)).body as Buffer, into)
    const text = fs.readFileSync(path.join(into, 'review.json'), 'utf8')
    expect(text).not.toContain('called her twice')
    const review = JSON.parse(text) as {
      status: string
      moves: {
        from: string
        to: string
        reason: string | null
        by: string
        sealedRecord: string
        ledgerEntry: { seal: string; kind: string }
      }[]
    }
    expect(review.status).toBe('deficient')
    expect(review.moves.map(({ from, to, reason, by }) => ({ from, to, reason, by }))).toEqual([
      { from: 'received', to: 'in_review', reason: null, by: ADMIN_EMAIL },
      { from: 'in_review', to: 'deficient', reason: 'name_differs', by: ADMIN_EMAIL },
    ])
    for (const move of review.moves) {
      // printf %s RECORD | sha256sum, as VERIFY.txt says
      const recordFile = path.join(into, 'move-record.txt')
      fs.writeFileSync(recordFile, move.sealedRecord)
      expect(sha256sum(recordFile)).toBe(move.ledgerEntry.seal)
      expect(move.ledgerEntry.kind).toBe('audit')
      expect(JSON.parse(move.sealedRecord)).toMatchObject({
        kind: 'audit',
        action: 'claim_moved',
        actor: ADMIN_EMAIL,
      })
    }
    // the moves' entries keep the chain whole: verify-evidence finds nothing wrong
    const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
    expect(report.problems).toEqual([])
  })

  it('puts each download in the audit log, and refuses one without a session or for no claim', async () => {
    await downloadBundle(claimId).expect(200)
    const entries = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'app', 'detail'])
      .where('action', '=', 'evidence_download')
      .execute()
    expect(entries.length).toBeGreaterThanOrEqual(1)
    expect(entries.at(-1)).toEqual({ action: 'evidence_download', app: 'brigit', detail: `claim ${claimId}` })
    await downloadBundle(claimId, '').expect(401)
    const missing = await downloadBundle(999_999).expect(404)
    expect(JSON.parse((missing.body as Buffer).toString()).error.message).toBe('no signed claim "999999"')
  })

  if (dialect === 'sqlite')
    it('writes the same bundle from npm run evidence', () => {
      const out = path.join(dir, 'from-the-command.zip')
      const result = spawnSync(
        process.execPath,
        [...productScript('scripts/evidence'), '--claim', String(claimId), '--out', out],
        {
          cwd: ROOT,
          env: { ...process.env, DATA_DIR: ctx.dataDir, DATABASE_URL: '' },
          encoding: 'utf8',
          timeout: 60_000,
        },
      )
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      expect(result.stdout.trim()).toBe(out)
      expect(fs.readFileSync(out).subarray(0, 2).toString('latin1')).toBe('PK')
    })
})
