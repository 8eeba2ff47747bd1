import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { createClaimantJourney } from '../../../server/journey/claimant-journey.ts'
import { SEND_REMINDER, sendReminderJob } from '../../../server/journey/send-reminder.job.ts'
import { createJobRunner } from '../../../server/jobs/job-runner.ts'
import { withinSendHours } from '../../../server/journey/claimant-day.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { loadJourneyConfig } from '../../../server/journey/journey-config.ts'
import { loadLanguages } from '../../../server/forms/languages.ts'
import { mailDelivery } from '../../../server/platform/mail-delivery.ts'
import { createLogger } from '../../../server/logger.ts'
import { mailsTo, openAgreementsByLink, partOf } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, FORMS_DIR, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { fileClaim, moveClaimTo } from '../support/claims.ts'

const DAY = 24 * 60 * 60 * 1000
const HONOLULU = 'Pacific/Honolulu'
const DAYTIME = { from: 9, to: 20 }

const subjectOf = (eml: string) => /^Subject: (.*)$/m.exec(eml)?.[1]

for (const dialect of DIALECTS) {
  describe(`${dialect}: a claimant from the main form to every Step 2 claim`, () => {
    let ctx: TestContext
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** A main-form intake in Hawaii choosing `apps`, with its own e-mail and phone. */
    async function fileIntake(apps: string[] = ['earnin', 'chime']) {
      seq += 1
      const email = `journey${seq}@mail.test`
      const phone = `(808) 555-${String(seq).padStart(4, '0')}`
      const answer = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ email, phone, cashAdvanceApps: apps }))
        .expect(201)
      const created = answer.body as CreatedIntake
      return { ...created, email, phone, token: (app: string) => tokenOf(created, app) }
    }

    const tokenOf = (created: CreatedIntake, app: string) =>
      created.steps.find((step) => step.app === app)!.path.split('#prefill=')[1]!

    const fileClaimTo = (app: string, fields: Record<string, unknown>, journeyToken?: string) =>
      fileClaim(ctx, { app, fields, journeyToken })

    const intakeOfClaim = async (id: number) =>
      (await ctx.db.selectFrom('claims').select('intake_id').where('id', '=', id).executeTakeFirstOrThrow())
        .intake_id

    it('gives a reference and a pre-filling Step 2 link per chosen app, which ties the claim it brings', async () => {
      const intake = await fileIntake(['earnin', 'chime', 'moneylion'])
      expect(intake.reference).toBe(`IN-${String(intake.id).padStart(6, '0')}`)
      expect(intake.steps.map((step) => [step.app, step.appName])).toEqual([
        ['earnin', 'Earnin'],
        ['chime', 'Chime'],
        ['moneylion', 'MoneyLion'],
      ])
      // no personal data in the address: the token names the intake by its id only
      for (const step of intake.steps) {
        expect(step.path).toMatch(
          new RegExp(`^/${step.app}#prefill=p\\.${intake.id}\\.${step.app}\\.\\d+\\.[\\w-]+$`),
        )
      }

      const prefill = (token: string, app: string) =>
        request(ctx.app).post('/api/journey/prefill').send({ token, app }).expect(200)
      expect((await prefill(intake.token('earnin'), 'earnin')).body).toEqual({
        firstName: 'Jane',
        lastName: 'Doe',
        email: intake.email,
        phone: intake.phone,
      })
      // another app's token, a forged one and an expired one: the form opens empty, no error
      const forged = intake.token('earnin').replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))
      const expired = ctx.journey.tokens.prefill({
        intakeId: intake.id,
        app: 'earnin',
        expiresAt: Date.now() - 1000,
      })
      for (const [token, app] of [
        [intake.token('earnin'), 'chime'],
        [forged, 'earnin'],
        [expired, 'earnin'],
        [`p.${intake.id + 1}.earnin.9999999999.AAAAAAAAAAAAAAAAAAAAAA`, 'earnin'],
      ] as const) {
        expect((await prefill(token, app)).body).toEqual({})
      }

      // through its link with both e-mail and phone changed: a link forwarded to someone else ties nothing
      const forwarded = await fileClaimTo(
        'earnin',
        { email: 'new.address@mail.test', phoneNumber: '(212) 555-0101' },
        intake.token('earnin'),
      )
      expect(await intakeOfClaim(Number(forwarded.id))).toBeNull()
      // through its link with the phone changed but the intake's e-mail: the intake's, by its link
      const viaLink = await fileClaimTo(
        'chime',
        { email: intake.email, phoneNumber: '(212) 555-0104' },
        intake.token('chime'),
      )
      expect(await intakeOfClaim(Number(viaLink.id))).toBe(intake.id)
      expect(
        (
          await ctx.db
            .selectFrom('claims')
            .select('intake_by_link')
            .where('id', '=', Number(viaLink.id))
            .executeTakeFirstOrThrow()
        ).intake_by_link,
      ).toBe(1)
      // a forged token ties nothing; another app's token neither
      const forgedClaim = await fileClaimTo(
        'chime',
        { email: 'other@mail.test', phoneNumber: '(212) 555-0102' },
        forged,
      )
      expect(await intakeOfClaim(Number(forgedClaim.id))).toBeNull()
      const wrongApp = await fileClaimTo(
        'chime',
        { email: 'other2@mail.test', phoneNumber: '(212) 555-0103' },
        intake.token('earnin'),
      )
      expect(await intakeOfClaim(Number(wrongApp.id))).toBeNull()
      // without a link, the same e-mail and phone make it the same claimant
      const sameContact = await fileClaimTo('moneylion', { email: intake.email, phoneNumber: intake.phone })
      expect(await intakeOfClaim(Number(sameContact.id))).toBe(intake.id)
      expect((await ctx.journey.pendingSteps(intake.id)).map((step) => step.app)).toEqual(['earnin'])
    })

    it("shows staff each case's Step 2 claim by the tie, the e-mails sent, and the claim's main form", async () => {
      const intake = await fileIntake(['earnin', 'chime'])
      // the claimant changed their phone on the form: the link still ties the claim
      const earnin = await fileClaimTo(
        'earnin',
        { email: intake.email, phoneNumber: '(212) 555-0199' },
        intake.token('earnin'),
      )
      await ctx.reminders.runDue(Date.parse(intake.createdAt))
      const site = 'journey.test'
      const cookie = await loginStaff(ctx.app, { site })
      const details = await request(ctx.app)
        .get(`/api/staff/intake-submissions/${intake.id}`)
        .set({ Host: site, Cookie: cookie })
        .expect(200)
      expect(
        details.body.cases.map((found: { app: string; claim: { id: number } | null }) => [
          found.app,
          found.claim?.id ?? null,
        ]),
      ).toEqual([
        ['earnin', earnin.id],
        ['chime', null],
      ])
      expect(details.body.journey).toEqual({
        mailsSent: 1,
        lastMailAt: intake.createdAt,
        nextDueAt: new Date(Date.parse(intake.createdAt) + 2 * DAY).toISOString(),
      })
      expect(details.body.unsubscribed).toBeNull()
      const review = await request(ctx.app)
        .get(`/api/staff/claims/${earnin.id}/review`)
        .set({ Host: site, Cookie: cookie })
        .expect(200)
      // came through the intake's own link: its address is the claim's
      expect(review.body.intake).toEqual({ id: intake.id, reference: intake.reference, confirmed: true })

      // with every chosen app's claim in, no reminder is to come, though the sender has not run since
      await fileClaimTo('chime', { email: intake.email, phoneNumber: intake.phone }, intake.token('chime'))
      const after = await request(ctx.app)
        .get(`/api/staff/intake-submissions/${intake.id}`)
        .set({ Host: site, Cookie: cookie })
        .expect(200)
      expect(after.body.journey.nextDueAt).toBeNull()
    })

    it('ties the claims filed before the intake by the same e-mail and phone', async () => {
      seq += 1
      const email = `before${seq}@mail.test`
      const phone = `(808) 555-${String(seq).padStart(4, '0')}`
      const earlier = await fileClaimTo('earnin', { email, phoneNumber: phone })
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ email, phone, cashAdvanceApps: ['earnin', 'chime'] }))
        .expect(201)
      expect(await intakeOfClaim(Number(earlier.id))).toBe(intake.body.id)
    })

    it('asks in the e-mail after the intake to confirm it was the claimant: confirmed once into the ledger, or "This wasn\'t me" on record for staff', async () => {
      const [mine, notMine] = [await fileIntake(['earnin']), await fileIntake(['chime', 'moneylion'])]
      await ctx.reminders.runDue(Date.parse(notMine.createdAt))
      const tokenIn = (email: string) => {
        const text = partOf(mailsTo(ctx.dataDir, email)[0]!.eml, 'text/plain')
        const link = /Did you file this claim yourself\? Please confirm it by opening this link: (\S+)/.exec(
          text,
        )
        expect(link?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/confirm#token=[\w-]{43}$/)
        return link![1]!.split('#token=')[1]!
      }
      expect(partOf(mailsTo(ctx.dataDir, mine.email)[0]!.eml, 'text/html')).toMatch(
        /<a href="http:\/\/127\.0\.0\.1:\d+\/confirm#token=[\w-]{43}">Confirm it was you<\/a>/,
      )
      const site = '127.0.0.1'
      const post = (url: string, token: string) =>
        request(ctx.app)
          .post(url)
          .set({ Host: site, Origin: `http://${site}`, 'User-Agent': 'journey browser' })
          .send({ token })
          .expect(200)

      const token = tokenIn(mine.email)
      expect((await post('/api/confirmations/claim', token)).body).toEqual({
        of: 'intake',
        reference: mine.reference,
        appNames: ['Earnin'],
        filedAt: mine.createdAt,
        confirmedAt: null,
        disownedAt: null,
      })
      const confirmed = await post('/api/confirmations', token)
      expect(confirmed.body.alreadyConfirmed).toBe(false)
      expect((await post('/api/confirmations', token)).body).toEqual({
        confirmedAt: confirmed.body.confirmedAt,
        alreadyConfirmed: true,
      })
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('kind')
        .where('subject', '=', `intake:${mine.id}`)
        .orderBy('seq')
        .execute()
      expect(sealed.map((entry) => entry.kind)).toEqual(['intake', 'confirmation'])

      await post('/api/confirmations/not-me', tokenIn(notMine.email))
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['actor', 'detail'])
        .where('action', '=', 'intake_disowned')
        .execute()
      expect(audit).toEqual([
        {
          actor: 'claimant',
          detail: `intake ${notMine.id}: the owner of its e-mail said they did not file it`,
        },
      ])
      const cookie = await loginStaff(ctx.app, { site })
      const details = async (id: number) =>
        (
          await request(ctx.app)
            .get(`/api/staff/intake-submissions/${id}`)
            .set({ Host: site, Cookie: cookie })
        ).body as { confirmedAt: string | null; disownedAt: string | null }
      expect(await details(mine.id)).toMatchObject({
        confirmedAt: confirmed.body.confirmedAt,
        disownedAt: null,
      })
      expect((await details(notMine.id)).disownedAt).toMatch(/^\d{4}-/)
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([])
    })

    it('e-mails the agreement and links at once, then reminds in daytime until each claim is in or the claimant unsubscribes', async () => {
      const intake = await fileIntake(['earnin', 'chime'])
      const start = Date.parse(intake.createdAt)
      await ctx.reminders.runDue(start)
      const [first, ...more] = mailsTo(ctx.dataDir, intake.email)
      expect(more).toEqual([])
      expect(subjectOf(first!.eml)).toBe('Your signed agreement and your next steps')
      const text = partOf(first!.eml, 'text/plain')
      expect(text).toContain(`Your reference number is ${intake.reference}.`)
      expect(text).toMatch(/File your Earnin claim: http:\/\/127\.0\.0\.1:\d+\/earnin#prefill=p\./)
      expect(text).toContain('File your Chime claim: ')
      expect(text).toContain('100 Example Plaza, Suite 400, Los Angeles, CA 90012')
      const html = partOf(first!.eml, 'text/html')
      expect(html).toContain('Cash Advance Claims Law Group')
      expect(html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/chime#prefill=/)
      expect(first!.eml).toMatch(/Content-Type: application\/pdf; name=.*Jane_Doe|filename=.*\.pdf/)
      // a copy is transactional: it has no unsubscribe header
      expect(first!.eml).not.toMatch(/^List-Unsubscribe:/m)

      // the day after: nothing due
      await ctx.reminders.runDue(start + DAY)
      expect(mailsTo(ctx.dataDir, intake.email)).toHaveLength(1)

      /** Runs at `at`, and again at the start of the claimant's day when `at` was at night. */
      const runInDaytime = async (at: number) => {
        await ctx.reminders.runDue(at)
        const daytime = withinSendHours(at, HONOLULU, DAYTIME)
        if (daytime > at) {
          expect(mailsTo(ctx.dataDir, intake.email)).toHaveLength(mails)
          const journey = await ctx.db
            .selectFrom('claimant_journeys')
            .select('due_at')
            .where('intake_id', '=', intake.id)
            .executeTakeFirstOrThrow()
          expect(Number(journey.due_at)).toBe(daytime)
          await ctx.reminders.runDue(daytime)
        }
      }
      let mails = 1
      await runInDaytime(start + 2 * DAY)
      // the reminders alone: the claim filed below also gets its own copy, sent in the background
      const reminders = () =>
        mailsTo(ctx.dataDir, intake.email).filter(
          ({ eml }) => subjectOf(eml) === 'Reminder: your claim is not finished',
        )
      expect(reminders()).toHaveLength(1)
      const reminder = reminders()[0]!.eml
      expect(subjectOf(reminder)).toBe('Reminder: your claim is not finished')
      // a long header is folded onto the lines after it
      const headers = reminder.split('\n\n')[0]!.replace(/\n[ \t]+/g, ' ')
      const oneClick = /^List-Unsubscribe:\s*<(http:\/\/[^>]+)>$/m.exec(headers)?.[1]
      expect(oneClick).toMatch(/\/api\/journey\/unsubscribe\?token=u\.\d+\.[\w-]+$/)
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
      expect(partOf(reminder, 'text/plain')).toContain('You told us you used Earnin, Chime')
      expect(partOf(reminder, 'text/plain')).toMatch(
        /Unsubscribe from reminders: http:\S+\/unsubscribe#token=u\./,
      )

      // Earnin's claim arrives through its link: the next reminder names Chime alone
      await fileClaimTo('earnin', { email: intake.email, phoneNumber: intake.phone }, intake.token('earnin'))
      await ctx.agreementCopies.settled()
      mails = mailsTo(ctx.dataDir, intake.email).length
      await runInDaytime(start + 5 * DAY)
      expect(reminders()).toHaveLength(2)
      expect(partOf(reminders()[1]!.eml, 'text/plain')).toContain('You told us you used Chime, but')

      // the mail program's one-click unsubscribe: a form-encoded POST from no page (RFC 8058)
      const url = new URL(oneClick!)
      const answer = await request(ctx.app)
        .post(`${url.pathname}${url.search}`)
        .type('form')
        .send('List-Unsubscribe=One-Click')
        .expect(200)
      expect(answer.body.message).toMatch(/^You will get no more reminders from us\./)
      const suppressed = await ctx.db
        .selectFrom('email_suppressions')
        .select(['email', 'source'])
        .where('email', '=', intake.email)
        .execute()
      expect(suppressed).toEqual([{ email: intake.email, source: 'one-click' }])
      // an unknown token, and the same one again: the same answer, nothing more stored
      for (const token of ['u.999999.AAAAAAAAAAAAAAAAAAAAAA', url.searchParams.get('token')]) {
        const again = await request(ctx.app).post('/api/journey/unsubscribe').send({ token }).expect(200)
        expect(again.body).toEqual(answer.body)
      }
      mails = 3
      await ctx.reminders.runDue(withinSendHours(start + 10 * DAY, HONOLULU, DAYTIME))
      expect(reminders()).toHaveLength(2)
      const ended = await ctx.db
        .selectFrom('claimant_journeys')
        .select(['due_at', 'mails_sent'])
        .where('intake_id', '=', intake.id)
        .executeTakeFirstOrThrow()
      expect(ended.due_at).toBeNull()
      expect(Number(ended.mails_sent)).toBe(3)
    })

    it('stops reminding once every chosen app has its claim', async () => {
      const intake = await fileIntake(['earnin'])
      const start = Date.parse(intake.createdAt)
      await ctx.reminders.runDue(start)
      await fileClaimTo('earnin', { email: intake.email, phoneNumber: intake.phone })
      await ctx.agreementCopies.settled()
      for (const day of [2, 5, 10, 11])
        await ctx.reminders.runDue(withinSendHours(start + day * DAY, HONOLULU, DAYTIME))
      expect(mailsTo(ctx.dataDir, intake.email).map((mail) => subjectOf(mail.eml))).toEqual([
        'Your signed agreement and your next steps',
        'Your signed Earnin agreement',
      ])
    })

    it("shows the claimant, by the agreements' link, each claim's state and the apps still to do", async () => {
      const intake = await fileIntake(['earnin', 'chime', 'moneylion'])
      const earnin = await fileClaimTo(
        'earnin',
        { email: intake.email, phoneNumber: intake.phone },
        intake.token('earnin'),
      )
      const chime = await fileClaimTo(
        'chime',
        { email: intake.email, phoneNumber: intake.phone },
        intake.token('chime'),
      )
      // Earnin's claim approved; Chime's made deficient, which opens its cure period
      await moveClaimTo(ctx, { id: earnin.id, app: 'earnin', status: 'approved' })
      await moveClaimTo(ctx, { id: chime.id, app: 'chime', status: 'deficient' })
      const { status } = await openAgreementsByLink(ctx, { email: intake.email, phone: intake.phone })
      expect(status.reference).toBe(intake.reference)
      expect(status.claims.map(({ app, state }) => [app, state])).toEqual([
        ['earnin', 'approved'],
        ['chime', 'attention'],
      ])
      expect(status.claims[0]).not.toHaveProperty('cureUrl')
      // the claim's own review (status names, reasons, notes) never reaches the claimant
      expect(JSON.stringify(status)).not.toMatch(/deficient|review_status|note/)
      const cureToken = /^\/cure#token=([\w-]{43})$/.exec(status.claims[1]!.cureUrl!)![1]!
      const cure = await request(ctx.app).post('/api/cures/open').send({ token: cureToken })
      expect(cure.status).toBe(200)
      expect(status.pending.map(({ app, appName }) => [app, appName])).toEqual([['moneylion', 'MoneyLion']])
      expect(status.pending[0]!.path).toMatch(/^\/moneylion#prefill=p\./)
      // an app missed on the main form can still be added; a closed one is not offered
      const others = status.others.map((step) => step.app)
      expect(others).toContain('brigit')
      expect(others).not.toContain('klover')
      expect(others.filter((app) => ['earnin', 'chime', 'moneylion'].includes(app))).toEqual([])
    })

    it('sends each reminder once from two senders sharing the database, at most the set number a minute', async () => {
      const intakes: Awaited<ReturnType<typeof fileIntake>>[] = []
      for (let i = 0; i < 12; i++) intakes.push(await fileIntake(['chime']))
      // their copies already went; each is due its first reminder
      const ids = intakes.map((intake) => intake.id)
      await ctx.db
        .updateTable('claimant_journeys')
        .set({ mails_sent: 1, due_at: 0 })
        .where('intake_id', 'in', ids)
        .execute()
      // the first reminder's day has come for the last of them, in the hour after Honolulu's noon
      const { latest } = await ctx.db
        .selectFrom('claimant_journeys')
        .select((eb) => eb.fn.max('created_at').as('latest'))
        .where('intake_id', 'in', ids)
        .executeTakeFirstOrThrow()
      const noon = withinSendHours(Number(latest) + 2 * DAY, HONOLULU, { from: 12, to: 13 })
      const logger = createLogger('silent')
      const config = loadJourneyConfig(FORMS_DIR)
      const languages = loadLanguages({ formsDir: FORMS_DIR, forms: ctx.forms, intake: ctx.intake })
      const journey = createClaimantJourney({ db: ctx.db, config, languages, evidenceKey: ctx.evidenceKey })
      // a server process's runner with only the reminders' job
      const sender = (owner: string) => {
        const runner = createJobRunner({
          db: ctx.db,
          owner,
          logger,
          handlers: [
            sendReminderJob({
              db: ctx.db,
              journey,
              config,
              languages,
              deliver: mailDelivery({ smtpUrl: undefined, dataDir: ctx.dataDir }),
              from: 'Claims <claims@example.com>',
              perMinute: 5,
              logger,
            }),
          ],
        })
        return { runDue: (now: number) => runner.runDue(SEND_REMINDER, now), stop: () => runner.stop() }
      }
      const [one, two] = [sender('process-a'), sender('process-b')]
      const reminded = () =>
        intakes
          .map((intake) => mailsTo(ctx.dataDir, intake.email).length)
          .reduce((sum, count) => sum + count, 0)
      await Promise.all([one.runDue(noon), two.runDue(noon)])
      expect(reminded()).toBe(5)
      await Promise.all([one.runDue(noon + 60_000), two.runDue(noon + 60_000)])
      expect(reminded()).toBe(10)
      await Promise.all([one.runDue(noon + 120_000), two.runDue(noon + 120_000), one.runDue(noon + 120_000)])
      // every claimant exactly one reminder
      expect(intakes.map((intake) => mailsTo(ctx.dataDir, intake.email).length)).toEqual(intakes.map(() => 1))
      await Promise.all([one.stop(), two.stop()])
    })
  })
}
