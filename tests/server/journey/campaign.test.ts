import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ClaimantStatus, OpenedAgreementLink } from '../../../src/api/agreements.ts'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { CureView } from '../../../src/api/cure.ts'
import type { Funnel } from '../../../src/api/funnel.ts'
import type { Batch, BatchCandidates, BatchClaim } from '../../../src/api/filing-batches.ts'
import type { JourneyPrefill } from '../../../src/api/journey.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import type { StaffPage, StaffClaimRow } from '../../../src/api/staff.ts'
import type { Attribution } from '../../../src/attribution.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { landingAttribution, rememberLanding } from '../../../client/attribution.ts'
import { mailsTo, plainTextOf } from '../support/agreement-link.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { pdfText } from '../support/pdf-text.ts'
import { asBuffer, unzip } from '../support/unzip.ts'
import {
  createTestContext,
  DIALECTS,
  FORMS_DIR,
  makeClaimData,
  makePng,
  pngDataUrl,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

// One claimant the whole way, as the firm runs a campaign: an Instagram ad, the main form and the
// Step 2 claim in Spanish signed by typing, a deficiency cured from the e-mail, the notice of dispute,
// the filing, the case number, and the claimant's own status page. Every request is the one the page
// sends (its builder, its address in the page's language, its body), through the firm's PUBLIC_URL.
const SITE = 'claims.test'
const PUBLIC_URL = `http://${SITE}`
const SAME_SITE = { Host: SITE, Origin: PUBLIC_URL }
const LANDING = `${PUBLIC_URL}/?utm_source=ig&utm_medium=paid_social&utm_campaign=fees-2026&fbclid=IwAR0campaign`
const DAY = 24 * 60 * 60 * 1000
const TYPED_NAME = 'José Peña-Núñez'
const CLAIMANT = {
  firstName: 'José',
  lastName: 'Peña-Núñez',
  email: 'jose.pena@mail.test',
  phone: '(305) 555-0187',
}
const REVIEWER = { email: 'rosa.reviewer@firm.test', password: 'reviewer password 1' }

/**
 * One claimant's browser as client/attribution.ts sees it: the page's address, its referrer and the
 * site's storage, which lasts from page to page. Each page load runs the module as main.tsx does.
 */
function claimantBrowser() {
  const stored = new Map<string, string>()
  const onPage = <T>(url: string, referrer: string, run: () => T): T => {
    vi.stubGlobal('window', { location: new URL(url) })
    vi.stubGlobal('document', { referrer })
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    })
    try {
      return run()
    } finally {
      vi.unstubAllGlobals()
    }
  }
  return {
    /** Loads the page at `url`, reached from `referrer`, and answers what its form sends as the attribution. */
    open(url: string, referrer = ''): Attribution | undefined {
      return onPage(url, referrer, () => {
        rememberLanding()
        return landingAttribution()
      })
    },
  }
}

/** The claimant's time zone, their Florida address's (server/journey/claimant-day.ts). */
const CLAIMANT_ZONE = 'America/New_York'
/** forms/base/review.json's cure period. */
const CURE_PERIOD_DAYS = (
  JSON.parse(fs.readFileSync(path.join(FORMS_DIR, 'base', 'review.json'), 'utf8')) as {
    curePeriodDays: number
  }
).curePeriodDays

/** A deadline's day as the claimant reads it in Spanish, in their own zone. */
function claimantDay(at: string): string {
  return new Intl.DateTimeFormat('es', { dateStyle: 'long', timeZone: CLAIMANT_ZONE }).format(new Date(at))
}

/** A zone whose day at `at` is not the claimant's: 18 or 19 hours ahead of Florida, or 7 or 8 behind. */
function zoneOnAnotherDay(at: number): string {
  const hour = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: CLAIMANT_ZONE, hour: 'numeric', hourCycle: 'h23' }).format(
      at,
    ),
  )
  return hour >= 6 ? 'Pacific/Kiritimati' : 'Etc/GMT+12'
}

/** The date the form prints in the agreement: the day in the claimant's browser, in Florida. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: CLAIMANT_ZONE }).format(Date.now())
/** A day as the firm's staff pages give it (firm.json's time zone). */
const firmDay = (at: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: FIRM_SETTINGS.timeZone }).format(at)
const subjectOf = (eml: string) => {
  const header = eml.split('\n\n')[0]!.replace(/\n[ \t]+/g, ' ')
  const subject = /^Subject: (.*)$/m.exec(header)?.[1] ?? ''
  // nodemailer encodes a subject with accents as RFC 2047 words
  return subject.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_word, encoding: string, text: string) =>
    encoding.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  )
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a campaign claimant from the ad to the case number`, () => {
    let ctx: TestContext
    let staff: string
    const browser = claimantBrowser()
    let attribution: Attribution | undefined
    let intake: CreatedIntake
    let claimId: number
    let noticeBatch: Batch
    let filingBatch: Batch
    let rowId: string
    let dir: string

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-campaign-'))
      ctx = await createTestContext(dialect, { publicUrl: PUBLIC_URL })
      // the firm's reviewer for the campaign's app, who may decide its claims and file them
      staff = await signInNewAccount(ctx, SITE, {
        ...REVIEWER,
        name: 'Rosa Reviewer',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: true, canDecide: true }],
      })
    })
    afterAll(async () => {
      await ctx?.close()
      if (dir) fs.rmSync(dir, { recursive: true, force: true })
    })

    const staffGet = (url: string) => request(ctx.app).get(url).set({ Host: SITE, Cookie: staff })
    const staffPost = (url: string) =>
      request(ctx.app).post(url).set(SAME_SITE).set('Cookie', staff).set('Accept', 'application/json')
    const reviewOf = async () =>
      (await staffGet(`/api/staff/claims/${claimId}/review`).expect(200)).body as ClaimReview
    /** A move as the review panel makes it: the target, the version it read, a reason when chosen. */
    const moveTo = async (to: string, extra: { reason?: string; note?: string } = {}) => {
      const review = await reviewOf()
      expect(review.moves.map((move) => move.to)).toContain(to)
      const moved = await staffPost(`/api/staff/claims/${claimId}/moves`).send({
        to,
        version: review.version,
        ...extra,
      })
      expect(moved.status, JSON.stringify(moved.body)).toBe(200)
      expect(moved.body).toEqual({ status: to, version: review.version + 1 })
    }
    const claimRow = () =>
      ctx.db.selectFrom('claims').selectAll().where('id', '=', claimId).executeTakeFirstOrThrow()
    const batchesApi = '/api/staff/apps/earnin/batches'
    const batchOf = async (id: number) => (await staffGet(`${batchesApi}/${id}`).expect(200)).body as Batch
    const candidates = async (kind: 'notice' | 'filing') =>
      (await staffGet(`${batchesApi}/candidates?kind=${kind}`).expect(200)).body as BatchCandidates
    /** A ZIP as the page's download link gets it, unpacked into its own folder. */
    const downloadZip = async (url: string, folder: string) => {
      const zip = (await asBuffer(staffGet(url)).expect(200)).body as Buffer
      const into = path.join(dir, folder)
      fs.mkdirSync(into, { recursive: true })
      return { into, names: await unzip(zip, into) }
    }
    const mailsToClaimant = () =>
      mailsTo(ctx.dataDir, CLAIMANT.email).map(({ eml }) => ({
        subject: subjectOf(eml),
        text: plainTextOf(eml),
      }))

    it('lands from the Instagram ad and files the main form in Spanish, signed by typing', async () => {
      // Instagram's link shim sends its host as the referrer, never the page's path
      attribution = browser.open(LANDING, 'https://l.instagram.com/?u=https%3A%2F%2Fclaims.test')
      expect(attribution).toEqual({
        utm_source: 'ig',
        utm_medium: 'paid_social',
        utm_campaign: 'fees-2026',
        fbclid: 'IwAR0campaign',
        referrer: 'l.instagram.com',
      })
      const answer = await sendIntakeAsForm(ctx.app, {
        data: makeIntakeData({
          ...CLAIMANT,
          cashAdvanceApps: ['earnin', 'chime'],
          address: '1 Calle Ocho',
          addressLine2: undefined,
          city: 'Miami',
          state: 'FL',
          zipCode: '33135',
          // a PNG stands for the typed name as the widget draws it in a signature style
          signature: pngDataUrl(),
        }),
        agreementDate: today(),
        signing: { method: 'typed', typedName: TYPED_NAME },
        locale: 'es',
        attribution,
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      intake = answer.body as CreatedIntake
      // what /thank-you shows: the reference, and a button per chosen app that pre-fills its form
      expect(intake.reference).toBe(`IN-${String(intake.id).padStart(6, '0')}`)
      expect(intake.steps.map((step) => [step.app, step.appName])).toEqual([
        ['earnin', 'Earnin'],
        ['chime', 'Chime'],
      ])
      for (const step of intake.steps) expect(step.path).toMatch(/#prefill=p\.\d+\.\w+\.\d+\.[\w-]+$/)
      const stored = await ctx.db
        .selectFrom('form_submissions')
        .select(['locale', 'signature_method', 'typed_signature', 'source', 'attribution'])
        .where('id', '=', intake.id)
        .executeTakeFirstOrThrow()
      expect({ ...stored, attribution: JSON.parse(stored.attribution!) }).toEqual({
        locale: 'es',
        signature_method: 'typed',
        typed_signature: TYPED_NAME,
        source: 'ig',
        attribution,
      })

      // the journey's first e-mail: the signed agreement and the same Step 2 links, in Spanish
      await ctx.reminders.runDue(Date.parse(intake.createdAt))
      const mails = mailsToClaimant()
      expect(mails.map((mail) => mail.subject)).toEqual(['Su acuerdo firmado y sus próximos pasos'])
      expect(mails[0]!.text).toContain(`Su número de referencia es ${intake.reference}.`)
      // each link opens the same Spanish form as the button on /thank-you, with a token of its own that
      // pre-fills it just the same
      for (const step of intake.steps) {
        const mailed = new RegExp(`Presente su reclamo de ${step.appName}: (\\S+)`).exec(mails[0]!.text)?.[1]
        expect(mailed?.split('#')[0]).toBe(`${PUBLIC_URL}${step.path.split('#')[0]}`)
        expect(step.path.split('#')[0]).toBe(`/${step.app}?lang=es`)
        const token = new URLSearchParams(new URL(mailed!).hash.slice(1)).get('prefill')
        const prefill = await request(ctx.app)
          .post('/api/journey/prefill?lang=es')
          .send({ token, app: step.app })
          .expect(200)
        expect(prefill.body as JourneyPrefill).toEqual(CLAIMANT)
      }
    })

    it('follows the Earnin link, is pre-filled, and files the claim in Spanish with the typed signature', async () => {
      const earnin = intake.steps.find((step) => step.app === 'earnin')!
      const link = new URL(earnin.path, PUBLIC_URL)
      const token = new URLSearchParams(link.hash.slice(1)).get('prefill')!
      // the link carries no campaign parameters: the form sends the ad's, kept in the browser since the landing
      const claimAttribution = browser.open(link.href)
      expect(claimAttribution).toEqual(attribution)
      // the Spanish page's fetches carry its language
      const prefill = await request(ctx.app)
        .post('/api/journey/prefill?lang=es')
        .set('Accept', 'application/json')
        .send({ token, app: 'earnin' })
        .expect(200)
      expect(prefill.body as JourneyPrefill).toEqual(CLAIMANT)
      const { firstName, lastName, email, phone } = prefill.body as typeof CLAIMANT

      const filed = await sendClaimAsForm(ctx.app, {
        slug: 'earnin',
        data: makeClaimData({ firstName, lastName, email, phoneNumber: phone }),
        agreementDate: today(),
        signing: { method: 'typed', typedName: TYPED_NAME },
        locale: 'es',
        journeyToken: token,
        attribution: claimAttribution,
      })
      expect(filed.status, JSON.stringify(filed.body)).toBe(201)
      claimId = Number(filed.body.id)
      const row = await claimRow()
      expect({
        intake_id: row.intake_id,
        source: row.source,
        locale: row.locale,
        attribution: JSON.parse(row.attribution!),
        review_status: row.review_status,
      }).toEqual({
        intake_id: intake.id,
        source: 'ig',
        locale: 'es',
        attribution,
        review_status: 'received',
      })
      const record = await ctx.db
        .selectFrom('agreement_records')
        .select(['locale', 'signature_method', 'typed_signature'])
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      expect(record).toEqual({ locale: 'es', signature_method: 'typed', typed_signature: TYPED_NAME })
      // Earnin's claim is in: only Chime is left for the reminders
      expect((await ctx.journey.pendingSteps(intake.id)).map((step) => step.app)).toEqual(['chime'])
    })

    it('is reviewed and found deficient; the notice goes out in Spanish with a link to the cure page', async () => {
      const review = await reviewOf()
      expect(review).toMatchObject({
        claimId,
        app: 'earnin',
        status: 'received',
        intake: { id: intake.id, reference: intake.reference },
        filing: null,
      })
      await moveTo('in_review')
      // the server's own zone must not decide the day the notice names: run it, while the notice goes,
      // in one whose day at the deadline is not the claimant's (a server in UTC is a day ahead of
      // Florida every evening)
      const serverZone = process.env.TZ
      process.env.TZ = zoneOnAnotherDay(Date.now() + CURE_PERIOD_DAYS * DAY)
      try {
        await moveTo('deficient', { reason: 'screenshot_unreadable', note: 'the amounts are blurred' })
        expect((await claimRow()).review_status).toBe('deficient')
        // the move wakes the notice's sender; whatever it has not sent yet is sent now
        await ctx.claimCures.settled()
        await ctx.claimCures.runDue()
      } finally {
        if (serverZone === undefined) delete process.env.TZ
        else process.env.TZ = serverZone
      }
      const notices = mailsToClaimant().filter((mail) => mail.subject.includes('corrección'))
      expect(notices.map((mail) => mail.subject)).toEqual(['Su reclamo de Earnin necesita una corrección'])
      expect(notices[0]!.text).toContain(
        'No pudimos leer la captura de pantalla de su estado de cuenta. Suba una más clara.',
      )
      expect(notices[0]!.text).not.toContain('blurred')
      expect(notices[0]!.text).toMatch(new RegExp(`${PUBLIC_URL}/cure\\?lang=es#token=[\\w-]{43}`))
      const { cure } = await reviewOf()
      expect(cure).toMatchObject({ noticesSent: 1, endedAt: null })
      // the last day to fix it is the claimant's own, in Florida, the day the cure page shows them too
      expect(notices[0]!.text).toContain(
        `Corríjalo a más tardar el ${claimantDay(cure!.expiresAt)} con el botón de abajo, que abre solo su reclamo.`,
      )
    })

    it('cures the claim from the e-mailed link, which puts it back before the reviewer', async () => {
      const notice = mailsToClaimant().find((mail) => mail.subject.includes('corrección'))!
      const link = new URL(/(\S+\/cure\?lang=es#token=[\w-]{43})/.exec(notice.text)![1]!)
      expect(link.origin).toBe(PUBLIC_URL)
      const token = new URLSearchParams(link.hash.slice(1)).get('token')!
      const opened = await request(ctx.app)
        .post('/api/cures/open?lang=es')
        .set({ 'Content-Type': 'application/json', Accept: 'application/json' })
        .send({ token })
      expect(opened.status, JSON.stringify(opened.body)).toBe(200)
      // the page's "Envíela antes del …", in the claimant's browser in Florida: the e-mail's day
      expect(notice.text).toContain(claimantDay((opened.body as CureView).expiresAt))
      expect(opened.body as CureView).toMatchObject({
        appName: 'Earnin',
        problems: ['No pudimos leer la captura de pantalla de su estado de cuenta. Suba una más clara.'],
        fix: ['screenshot'],
        firstName: CLAIMANT.firstName,
        lastName: CLAIMANT.lastName,
      })
      // the cure page sends only what the notice asked for: the token, and the new screenshot
      const sent = await request(ctx.app)
        .post('/api/cures?lang=es')
        .set('Accept', 'application/json')
        .field('data', JSON.stringify({ token }))
        .attach('screenshot', makePng({ width: 64, height: 48 }), 'estado-de-cuenta.png')
      expect(sent.status, JSON.stringify(sent.body)).toBe(201)
      expect(sent.body.amendmentId).toEqual(expect.any(Number))

      const review = await reviewOf()
      expect(review.status).toBe('cured')
      expect(review.history.at(-1)).toMatchObject({ from: 'deficient', to: 'cured', actor: 'claimant' })
      expect(review.amendments).toEqual([
        expect.objectContaining({ reasons: ['screenshot_unreadable'], hasScreenshot: true }),
      ])
      expect(review.cure?.endedAt).not.toBeNull()
    })

    it('is approved by the reviewer', async () => {
      await moveTo('in_review')
      await moveTo('approved')
      const review = await reviewOf()
      expect(review.status).toBe('approved')
      expect(review.history.map((move) => move.to)).toEqual([
        'in_review',
        'deficient',
        'cured',
        'in_review',
        'approved',
      ])
    })

    it('goes into a notice of dispute to Earnin, which is built and marked sent', async () => {
      // the job scores the claim for fraud after it is stored: clear, it may go into a batch
      await ctx.fraudScores.runDue()
      const found = await candidates('notice')
      expect([found.held, found.unscored]).toEqual([0, 0])
      expect(found.claims.map((claim) => [claim.claimId, claim.missing])).toEqual([[claimId, []]])
      const started = await staffPost(batchesApi).send({ kind: 'notice' })
      expect(started.status, JSON.stringify(started.body)).toBe(202)
      noticeBatch = started.body as Batch
      expect([noticeBatch.status, noticeBatch.claimCount]).toEqual(['building', 1])
      await ctx.batchBuilder.runDue()
      noticeBatch = await batchOf(noticeBatch.id)
      expect(noticeBatch.status, noticeBatch.problem ?? '').toBe('ready')
      expect(noticeBatch.sha256).toMatch(/^[0-9a-f]{64}$/)
      // the notice names the claimant at the address of their main form
      const notices = await downloadZip(`${batchesApi}/${noticeBatch.id}/download`, 'notice')
      expect(notices.names).toContain(`notices/notice-${claimId}.pdf`)
      const notice = await pdfText(fs.readFileSync(path.join(notices.into, `notices/notice-${claimId}.pdf`)))
      expect(notice).toContain('Notice of Dispute')
      expect(notice).toContain('Activehours, Inc.')
      expect(notice).toContain(`${CLAIMANT.firstName} ${CLAIMANT.lastName}`)
      expect(notice).toContain('1 Calle Ocho')

      // the form's day unless changed: today, in the firm's zone
      const sentOn = firmDay(Date.now())
      const sent = await staffPost(`${batchesApi}/${noticeBatch.id}/sent`).send({
        sentOn,
        method: 'certified_mail',
        tracking: '9407 1000 0000 0000 0042',
      })
      expect(sent.status, JSON.stringify(sent.body)).toBe(204)
      noticeBatch = await batchOf(noticeBatch.id)
      expect(noticeBatch.sent).toMatchObject({ method: 'certified_mail', on: sentOn })
      expect((await claimRow()).notice_batch_id).toBe(noticeBatch.id)
      const waiting = await candidates('filing')
      expect([waiting.ready, waiting.waiting, waiting.nextMayFileFrom]).toEqual([
        0,
        1,
        noticeBatch.sent!.mayFileFrom,
      ])
    })

    it('goes into an AAA filing batch once the waiting period has passed, and is filed', async () => {
      // the test's clock: the notice went out 61 days ago
      await ctx.db
        .updateTable('filing_batches')
        .set({ created_at: Date.now() - 62 * DAY, sent_on: firmDay(Date.now() - 61 * DAY) })
        .where('id', '=', noticeBatch.id)
        .execute()
      noticeBatch = await batchOf(noticeBatch.id)
      expect((await candidates('filing')).claims.map((claim) => [claim.claimId, claim.missing])).toEqual([
        [claimId, []],
      ])
      const started = await staffPost(batchesApi).send({ kind: 'filing' })
      expect(started.status, JSON.stringify(started.body)).toBe(202)
      filingBatch = started.body as Batch
      expect([filingBatch.status, filingBatch.claimCount]).toEqual(['building', 1])
      await ctx.batchBuilder.runDue()
      filingBatch = await batchOf(filingBatch.id)
      expect(filingBatch.status, filingBatch.problem ?? '').toBe('ready')
      expect(filingBatch.provider).toBe('American Arbitration Association (AAA)')
      expect(filingBatch.batchHash).toMatch(/^[0-9a-f]{64}$/)
      const row = await claimRow()
      expect([row.review_status, row.filing_batch_id, row.notice_batch_id]).toEqual([
        'filed',
        filingBatch.id,
        noticeBatch.id,
      ])
      const claims = (await staffGet(`${batchesApi}/${filingBatch.id}/claims`).expect(200))
        .body as BatchClaim[]
      expect(claims).toEqual([
        {
          claimId,
          rowId: expect.any(String),
          name: `${CLAIMANT.firstName} ${CLAIMANT.lastName}`,
          caseNumber: null,
        },
      ])
      rowId = claims[0]!.rowId!

      // the provider's spreadsheet row and the demand are the claimant's, accents and all
      const filing = await downloadZip(`${batchesApi}/${filingBatch.id}/download`, 'filing')
      const [, spreadsheetRow, ...otherRows] = fs
        .readFileSync(path.join(filing.into, 'spreadsheet.csv'), 'utf8')
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      expect(otherRows).toEqual([])
      expect(spreadsheetRow).toMatch(
        new RegExp(
          `^${rowId},José,Peña-Núñez,1 Calle Ocho,,Miami,FL,33135,jose\\.pena@mail\\.test,\\(305\\) 555-0187,`,
        ),
      )
      expect(filing.names).toContain(`demands/${rowId}.pdf`)
      const demand = await pdfText(fs.readFileSync(path.join(filing.into, `demands/${rowId}.pdf`)))
      expect(demand).toContain('Demand for Arbitration')
      expect(demand).toContain(`${CLAIMANT.firstName} ${CLAIMANT.lastName}`)
    })

    it("takes the provider's case number from the CSV the filing page uploads", async () => {
      const imported = await staffPost(`${batchesApi}/${filingBatch.id}/case-numbers`)
        .set('Content-Type', 'text/csv')
        .send(`Unique Claimant ID,Case Number\r\n${rowId},01-26-0042-7777\r\n`)
      expect(imported.status, JSON.stringify(imported.body)).toBe(200)
      expect(imported.body).toEqual({ imported: 1 })
      expect((await batchOf(filingBatch.id)).caseNumbers).toBe(1)
      expect((await claimRow()).case_number).toBe('01-26-0042-7777')
      expect((await reviewOf()).filing).toEqual({
        noticeBatchId: noticeBatch.id,
        noticeSentOn: noticeBatch.sent!.on,
        mayFileFrom: noticeBatch.sent!.mayFileFrom,
        noticeTracking: '9407 1000 0000 0000 0042',
        filingBatchId: filingBatch.id,
        rowId,
        caseNumber: '01-26-0042-7777',
      })
      // the dashboard finds the claim by its case number, when the provider writes about it
      const found = (
        await staffGet('/api/staff/apps/earnin/submissions').query({ case: '01-26-0042-7777' }).expect(200)
      ).body as StaffPage<StaffClaimRow>
      expect(found.data.map((claim) => claim.id)).toEqual([claimId])
      // the row's evidence: the Spanish agreement signed by typing, the cure that answered the notice, and
      // the arbitration it backs
      const evidence = await downloadZip(`${batchesApi}/${filingBatch.id}/evidence`, 'evidence')
      expect(evidence.names).toEqual([`${rowId}-evidence.zip`])
      const bundleDir = path.join(evidence.into, rowId)
      fs.mkdirSync(bundleDir)
      const bundle = await unzip(
        fs.readFileSync(path.join(evidence.into, `${rowId}-evidence.zip`)),
        bundleDir,
      )
      expect(bundle).toEqual(
        expect.arrayContaining([
          'agreement.pdf',
          'record.json',
          'review.json',
          'filing.json',
          expect.stringMatching(/^amendment-\d+\.json$/),
          expect.stringMatching(/^amendment-\d+-screenshot\.png$/),
        ]),
      )
      const filed = JSON.parse(fs.readFileSync(path.join(bundleDir, 'filing.json'), 'utf8')) as {
        filing: { batch: number; rowId: string; caseNumber: string }
      }
      expect(filed.filing).toMatchObject({ batch: filingBatch.id, rowId, caseNumber: '01-26-0042-7777' })
      const agreement = await pdfText(fs.readFileSync(path.join(bundleDir, 'agreement.pdf')))
      expect(agreement).toContain('Acuerdo de Honorarios Contingentes')
      expect(agreement).toContain(TYPED_NAME)
    })

    it('shows the claimant, on the Spanish status page their e-mailed link opens, the claim filed with its case number', async () => {
      const before = mailsTo(ctx.dataDir, CLAIMANT.email).length
      const asked = await request(ctx.app)
        .post('/api/agreements/lookup?lang=es')
        .set({ 'Content-Type': 'application/json', Accept: 'application/json' })
        .send({ email: CLAIMANT.email, phone: CLAIMANT.phone })
      expect(asked.status, JSON.stringify(asked.body)).toBe(202)
      expect(asked.body.message).toMatch(/^Si tenemos un acuerdo/)
      await ctx.agreementLinks.settled()
      const [linkMail, ...more] = mailsTo(ctx.dataDir, CLAIMANT.email).slice(before)
      expect(more).toEqual([])
      expect(subjectOf(linkMail!.eml)).toBe('Su enlace para ver sus acuerdos firmados')
      const link = new URL(/(\S+\/view-agreement\S*#link=[\w-]{43})/.exec(plainTextOf(linkMail!.eml))![1]!)
      expect(link.origin).toBe(PUBLIC_URL)
      const token = /^#link=([\w-]{43})$/.exec(link.hash)![1]!
      // the page opened by the link asks in the language the link names
      const lang = link.searchParams.get('lang') ?? 'en'
      expect(lang).toBe('es')
      const opened = await request(ctx.app)
        .post(`/api/agreements/open?lang=${lang}`)
        .set({ 'Content-Type': 'application/json', Accept: 'application/json' })
        .send({ token })
      expect(opened.status, JSON.stringify(opened.body)).toBe(200)
      const { status, agreements } = opened.body as OpenedAgreementLink
      expect(status.reference).toBe(intake.reference)
      expect(status.claims).toEqual([
        { claimId, app: 'earnin', appName: 'Earnin', state: 'filed', caseNumber: '01-26-0042-7777' },
      ] satisfies ClaimantStatus['claims'])
      expect(status.pending.map((step) => step.app)).toEqual(['chime'])
      expect(JSON.stringify(status)).not.toMatch(/deficient|cured|blurred/)
      expect(
        agreements.map((agreement) => [agreement.kind, agreement.signatureMethod, agreement.typedSignature]),
      ).toEqual([
        ['intake', 'typed', TYPED_NAME],
        ['claim', 'typed', TYPED_NAME],
      ])

      // the page's own words for a filed claim and its case number, in Spanish
      const texts = (await request(ctx.app).get(`/api/ui-text?lang=${lang}`).expect(200)).body as Record<
        string,
        string
      >
      expect(texts['Where your claims stand']).toBe('El estado de sus reclamos')
      expect(texts['Filed']).toBe('Presentado')
      expect(texts['Your claim was filed in arbitration.']).toBe('Su reclamo se presentó en arbitraje.')
      expect(
        texts['Case number with the arbitration provider: {caseNumber}']!.replace(
          '{caseNumber}',
          status.claims[0]!.caseNumber!,
        ),
      ).toBe('Número de caso ante el proveedor de arbitraje: 01-26-0042-7777')
    })

    it('counts the claimant under the ad in the funnel, from the intake to the filed claim', async () => {
      const admin = await loginStaff(ctx.app, { site: SITE })
      const day = intake.createdAt.slice(0, 10)
      const funnel = (
        await request(ctx.app)
          .get('/api/staff/funnel')
          .query({ from: day, to: day })
          .set({ Host: SITE, Cookie: admin })
          .expect(200)
      ).body as Funnel
      // a filed claim still counts as approved; it was scored, and not held, before it could be filed
      expect(funnel.sources).toEqual([
        {
          source: 'ig',
          intakes: 1,
          claimsByApp: { earnin: 1 },
          claims: 1,
          confirmed: 0,
          approved: 1,
          scored: 1,
          held: 0,
        },
      ])
    })
  })
}
