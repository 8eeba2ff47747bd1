import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CureView } from '../../../src/api/cure.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import { createDuplicateScreenshots } from '../../../server/duplicates/duplicate-screenshots.ts'
import { screenshotHashThread } from '../../../server/duplicates/screenshot-hasher.ts'
import { subjectOf } from '../../../server/evidence/ledger.ts'
import { contentThreadRequestCount } from '../../../server/claim-content/claim-content.ts'
import { createLogger } from '../../../server/logger.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { mailsTo, plainTextOf } from '../support/agreement-link.ts'
import { bankScreenshot, encodePngImage } from '../support/bank-screenshots.ts'
import {
  createTestContext,
  DIALECTS,
  makeClaimData,
  makePng,
  pngDataUrl,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'cure.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DAY = 24 * 60 * 60 * 1000

for (const dialect of DIALECTS) {
  describe(`${dialect}: a deficient claim cured by its claimant`, () => {
    let ctx: TestContext
    let admin: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** A claim filed through the claim form, moved into review and made deficient for `reason`. */
    async function deficientClaim(reason: string, { lang }: { lang?: 'es' } = {}) {
      seq += 1
      const email = `cure${seq}@mail.test`
      const filed = await request(ctx.app)
        .post(`/api/forms/brigit/submissions${lang ? `?lang=${lang}` : ''}`)
        .field(
          'data',
          JSON.stringify(makeClaimData({ email, phoneNumber: `(212) 555-${String(seq).padStart(4, '0')}` })),
        )
        .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
        .expect(201)
      const claimId = Number(filed.body.id)
      await move(claimId, { to: 'in_review', version: 0 }).expect(200)
      await move(claimId, { to: 'deficient', reason, note: 'internal: blurred', version: 1 }).expect(200)
      // the move woke the sender, which may be sending now; then nothing is left due
      await ctx.claimCures.settled()
      await ctx.claimCures.runDue()
      return { claimId, email }
    }

    const move = (claimId: number, body: Record<string, unknown>) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send(body)
    const reviewOf = async (claimId: number) =>
      (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', admin).expect(200))
        .body as ClaimReview
    const tokensTo = (email: string) =>
      mailsTo(ctx.dataDir, email).flatMap(({ eml }) => {
        const match = /\/cure(?:\?lang=\w+)?#token=([\w-]{43})/.exec(plainTextOf(eml))
        return match ? [match[1]!] : []
      })
    const open = (token: string) => request(ctx.app).post('/api/cures/open').set(SAME_SITE).send({ token })
    const cure = (data: Record<string, unknown>, screenshot?: Buffer) => {
      const req = request(ctx.app).post('/api/cures').set(SAME_SITE).field('data', JSON.stringify(data))
      return screenshot ? req.attach('screenshot', screenshot, 'new.png') : req
    }
    const count = async (table: 'claim_amendments' | 'claim_moves') =>
      Number(
        (
          await ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('e-mails the claimant what is wrong with a link, and the link opens only what needs fixing', async () => {
      const { claimId, email } = await deficientClaim('screenshot_unreadable')
      const mails = mailsTo(ctx.dataDir, email).filter(({ eml }) => /needs a correction/.test(eml))
      expect(mails).toHaveLength(1)
      const text = plainTextOf(mails[0]!.eml)
      expect(text).toContain('We could not read your bank statement screenshot. Please upload a clearer one.')
      expect(text).not.toContain('internal: blurred')
      const [token] = tokensTo(email)

      const opened = await open(token!).expect(200)
      expect(opened.body).toMatchObject({
        appName: 'Brigit',
        problems: ['We could not read your bank statement screenshot. Please upload a clearer one.'],
        fix: ['screenshot'],
      } satisfies Partial<CureView>)
      await open(token!).expect(200)
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['action', 'detail', 'actor'])
        .where('action', 'in', ['cure_notice_sent', 'cure_link_opened'])
        .where('detail', 'like', `claim ${claimId}:%`)
        .orderBy('id')
        .execute()
      expect(audit).toEqual([
        expect.objectContaining({ action: 'cure_notice_sent', actor: 'server' }),
        // opened twice, on the record once
        { action: 'cure_link_opened', detail: `claim ${claimId}: cure link opened`, actor: 'claimant' },
      ])
      const review = await reviewOf(claimId)
      expect(review.cure).toMatchObject({ noticesSent: 1, endedAt: null })
      expect(review.cure?.openedAt).not.toBeNull()
    })

    it('serves the refused screenshot to the holder of a live cure link only, never to be cached', async () => {
      const { claimId, email } = await deficientClaim('screenshot_unreadable')
      const [token] = tokensTo(email)
      const screenshotOf = (sent: unknown) =>
        request(ctx.app).post('/api/cures/screenshot').set(SAME_SITE).send({ token: sent })
      const shown = await screenshotOf(token).expect(200)
      expect(shown.headers['cache-control']).toContain('no-store')
      expect(shown.headers['content-type']).toBe('image/png')
      expect(Buffer.compare(shown.body as Buffer, makePng({ width: 40, height: 30 }))).toBe(0)
      await screenshotOf('A'.repeat(43)).expect(404)
      await screenshotOf(undefined).expect(404)

      // cured: the link is spent; a second notice shows the screenshot the claimant sent with the first
      const sent = makePng({ width: 64, height: 48 })
      await cure({ token }, sent).expect(201)
      await screenshotOf(token).expect(410)
      const review = await reviewOf(claimId)
      await move(claimId, { to: 'in_review', version: review.version }).expect(200)
      await move(claimId, {
        to: 'deficient',
        reason: 'screenshot_unreadable',
        version: review.version + 1,
      }).expect(200)
      await ctx.claimCures.settled()
      await ctx.claimCures.runDue()
      const second = tokensTo(email).find((other) => other !== token)!
      const again = await screenshotOf(second).expect(200)
      expect(Buffer.compare(again.body as Buffer, sent)).toBe(0)
    })

    it('refuses corrections the notice did not ask for, or that are not what it asked, and keeps nothing', async () => {
      const { email } = await deficientClaim('screenshot_unreadable')
      const [token] = tokensTo(email)
      const before = { amendments: await count('claim_amendments'), moves: await count('claim_moves') }

      const missing = await cure({ token }).expect(422)
      expect(missing.body.error.message).toBe('Please upload a new bank statement screenshot (PNG or JPEG).')
      const notImage = await cure({ token }, Buffer.from('%PDF-1.4 not a picture')).expect(422)
      expect(notImage.body.error.message).toMatch(/PNG|JPEG|image/)
      const notAsked = await cure({ token, firstName: 'Ann', lastName: 'Other' }, makePng()).expect(400)
      expect(notAsked.body.error.message).toBe("this claim's notice did not ask for a name")
      await cure({ token: 'A'.repeat(43) }, makePng()).expect(404)
      const malformed = await request(ctx.app)
        .post('/api/cures')
        .set(SAME_SITE)
        .field('data', '{')
        .expect(400)
      expect(malformed.body.error.message).toMatch(/"data" field/)

      expect(await count('claim_amendments')).toBe(before.amendments)
      expect(await count('claim_moves')).toBe(before.moves)
    })

    it("checks a cure's screenshot in the content thread, and refuses a file that is no image as a claim's is refused", async () => {
      const broken = Buffer.from('%PDF-1.4 not a picture')
      seq += 1
      const claimed = await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field(
          'data',
          JSON.stringify(
            makeClaimData({
              email: `broken${seq}@mail.test`,
              phoneNumber: `(718) 555-${String(seq).padStart(4, '0')}`,
            }),
          ),
        )
        .attach('screenshot', broken, 'statement.png')
        .expect(422)
      const { email } = await deficientClaim('screenshot_unreadable')
      const [token] = tokensTo(email)

      const before = contentThreadRequestCount()
      const cured = await cure({ token }, broken).expect(422)
      // the claim's names its field, the cure page has only the one
      expect(claimed.body.error.message).toBe(`Bank Statement Screenshot: ${cured.body.error.message}`)
      expect(contentThreadRequestCount()).toBe(before + 1)
      await cure({ token }, makePng({ width: 64, height: 48 })).expect(201)
      expect(contentThreadRequestCount()).toBe(before + 2)
    })

    it("flags a claim cured with another claimant's screenshot as a duplicate of that claim", async () => {
      const sweeper = createDuplicateScreenshots({
        db: ctx.db,
        storage: ctx.storage,
        hasher: screenshotHashThread(),
        logger: createLogger('silent'),
      })
      try {
        const theirs = encodePngImage(bankScreenshot({ seed: 7, width: 540, height: 1170 }))
        seq += 1
        const other = await request(ctx.app)
          .post('/api/forms/brigit/submissions')
          .field(
            'data',
            JSON.stringify(
              makeClaimData({
                email: `other${seq}@mail.test`,
                phoneNumber: `(646) 555-${String(seq).padStart(4, '0')}`,
              }),
            ),
          )
          .attach('screenshot', theirs, 'statement.png')
          .expect(201)
        const otherId = Number(other.body.id)
        const { claimId, email } = await deficientClaim('screenshot_unreadable')
        sweeper.wake()
        await sweeper.settled()
        const [token] = tokensTo(email)
        await cure({ token }, Buffer.from(theirs)).expect(201)
        sweeper.wake()
        await sweeper.settled()

        const matches = await ctx.db
          .selectFrom('screenshot_matches')
          .select(['claim_id', 'other_claim_id', 'kind'])
          .where('claim_id', 'in', [claimId, otherId])
          .where('other_claim_id', 'in', [claimId, otherId])
          .orderBy('claim_id')
          .execute()
        expect(matches.map((row) => [Number(row.claim_id), Number(row.other_claim_id), row.kind])).toEqual([
          [Math.min(claimId, otherId), Math.max(claimId, otherId), 'exact'],
          [Math.max(claimId, otherId), Math.min(claimId, otherId), 'exact'],
        ])
      } finally {
        await sweeper.stop()
      }
    })

    it('stores a new screenshot as a sealed amendment naming the claim, moves the claim to cured, and the reviewer approves it', async () => {
      const { claimId, email } = await deficientClaim('screenshot_unreadable')
      const [token] = tokensTo(email)
      const screenshot = makePng({ width: 64, height: 48 })
      const sent = await cure({ token }, screenshot).expect(201)
      const amendmentId = Number(sent.body.amendmentId)

      const row = await ctx.db
        .selectFrom('claim_amendments')
        .selectAll()
        .where('id', '=', amendmentId)
        .executeTakeFirstOrThrow()
      const claimSeal = await ctx.db
        .selectFrom('evidence_ledger')
        .select('seal')
        .where('subject', '=', subjectOf('claim', claimId))
        .where('kind', '=', 'claim')
        .executeTakeFirstOrThrow()
      expect(row).toMatchObject({
        amends_kind: 'claim',
        amends_seal: claimSeal.seal,
        screenshot_sha256: crypto.createHash('sha256').update(screenshot).digest('hex'),
        fields: null,
      })
      const entry = await ctx.db
        .selectFrom('evidence_ledger')
        .select(['kind', 'detail'])
        .where('subject', '=', subjectOf('amendment', amendmentId))
        .executeTakeFirstOrThrow()
      expect(entry.kind).toBe('amendment')
      expect(entry.detail).toContain(subjectOf('claim', claimId))

      let review = await reviewOf(claimId)
      expect(review.status).toBe('cured')
      expect(review.history.at(-1)).toMatchObject({ from: 'deficient', to: 'cured', actor: 'claimant' })
      expect(review.amendments).toEqual([
        expect.objectContaining({ id: amendmentId, reasons: ['screenshot_unreadable'], hasScreenshot: true }),
      ])
      expect(review.cure?.endedAt).not.toBeNull()
      const image = await request(ctx.app)
        .get(`/api/staff/claims/${claimId}/amendments/${amendmentId}/screenshot`)
        .set('Cookie', admin)
        .expect(200)
      expect(Buffer.compare(image.body as Buffer, screenshot)).toBe(0)

      // the same link again: already used
      const again = await open(token!).expect(410)
      expect(again.body.error.message).toBe('Your corrections were already received. Thank you.')

      await move(claimId, { to: 'in_review', version: review.version }).expect(200)
      review = await reviewOf(claimId)
      await move(claimId, { to: 'approved', version: review.version }).expect(200)
      expect((await reviewOf(claimId)).status).toBe('approved')

      const report = await verifyEvidence({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        claimId,
      })
      expect(report.problems).toEqual([])
      expect(report.amendments).toBe(1)

      // a changed amendment is caught
      await ctx.db
        .updateTable('claim_amendments')
        .set({ user_agent: 'changed' })
        .where('id', '=', amendmentId)
        .execute()
      const tampered = await verifyEvidence({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        claimId,
      })
      expect(tampered.problems).toEqual([
        `amendment ${amendmentId} of claim ${claimId}: sealed record differs (the amendment was changed)`,
      ])
      await ctx.db
        .updateTable('claim_amendments')
        .set({ user_agent: row.user_agent })
        .where('id', '=', amendmentId)
        .execute()
    })

    it('asks a name and a signature as the reasons say, in Spanish for a Spanish claim', async () => {
      const { claimId, email } = await deficientClaim('name_differs', { lang: 'es' })
      const mail = mailsTo(ctx.dataDir, email).find(({ eml }) =>
        /\/cure\?lang=es#token=/.test(plainTextOf(eml)),
      )
      expect(plainTextOf(mail!.eml)).toContain('El nombre en su captura de pantalla no es el de su reclamo.')
      // the last day is the claimant's to use: "no later than", never "before"
      expect(plainTextOf(mail!.eml)).toMatch(/Corríjalo a más tardar el \d{1,2} de \w+ de \d{4} con el botón/)
      const [token] = tokensTo(email)
      const view = (await open(token!).expect(200)).body as CureView
      expect(view.fix).toEqual(['screenshot', 'name'])
      const noName = await cure({ token, firstName: ' ', lastName: 'Ruiz' }, makePng()).expect(422)
      expect(noName.body.error.message).toBe('Escriba su nombre y apellido.')
      await cure({ token, firstName: 'Ana María', lastName: 'Ruiz' }, makePng()).expect(201)
      const row = await ctx.db
        .selectFrom('claim_amendments')
        .select('fields')
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      expect(JSON.parse(row.fields!)).toEqual({ firstName: 'Ana María', lastName: 'Ruiz' })

      const signed = await deficientClaim('signature_unclear')
      const [signToken] = tokensTo(signed.email)
      await cure({ token: signToken, signature: 'data:image/png;base64,AAAA' }).expect(422)
      await cure({ token: signToken, signature: pngDataUrl(), signatureMethod: 'drawn' }).expect(201)
    })

    it('reminds at half the period and two days before its end, then moves an uncured claim to not_cured', async () => {
      const { claimId, email } = await deficientClaim('duplicate')
      const start = (await reviewOf(claimId)).cure!
      const started = Date.parse(start.startedAt)
      const subjects = () =>
        mailsTo(ctx.dataDir, email)
          .map(({ eml }) => /^Subject: (.*)$/m.exec(eml)?.[1])
          .filter((subject) => subject?.includes('correction'))

      const ends = Date.parse(start.expiresAt)
      const half = Math.ceil((started + ends) / 2)
      await ctx.claimCures.runDue(half - 1)
      expect(subjects()).toHaveLength(1)
      await ctx.claimCures.runDue(half)
      expect(subjects()).toEqual([
        'Your Brigit claim needs a correction',
        'Reminder: your Brigit claim still needs a correction',
      ])
      await ctx.claimCures.runDue(ends - 2 * DAY)
      expect(subjects()).toHaveLength(3)
      await ctx.claimCures.runDue(ends - DAY)
      expect(subjects()).toHaveLength(3)
      // every link of the notice works while the period runs
      const tokens = tokensTo(email)
      expect(new Set(tokens).size).toBe(3)
      await open(tokens[0]!).expect(200)

      await ctx.claimCures.runDue(ends - 1)
      expect((await reviewOf(claimId)).status).toBe('deficient')
      await ctx.claimCures.runDue(ends)
      const review = await reviewOf(claimId)
      expect(review.status).toBe('not_cured')
      expect(review.history.at(-1)).toMatchObject({ from: 'deficient', to: 'not_cured', actor: 'server' })
      const expired = await open(tokens[2]!).expect(410)
      expect(expired.body.error.message).toBe('The time to fix this claim has ended.')
      await cure({ token: tokens[2] }, makePng()).expect(410)
    })
  })
}
