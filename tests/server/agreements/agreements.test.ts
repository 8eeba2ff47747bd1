import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Express } from 'express'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createAgreementCopies, type AgreementCopies } from '../../../server/agreements/agreement-copies.ts'
import { createAgreementMailer } from '../../../server/agreements/agreement-mailer.ts'
import { createAgreementLinks } from '../../../server/agreements/agreement-links.ts'
import { createApp } from '../../../server/app.ts'
import { createLogger } from '../../../server/logger.ts'
import { agreementContext } from '../../../src/agreement-context.ts'
import { LOOKUP_RATE_LIMITED_MESSAGE } from '../../../src/lookup-messages.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  readFixture,
  TEMPLATES,
  TEST_PUBLIC_LIMITS,
  type TestContext,
} from '../support/helpers.ts'
import { pdfText } from '../support/pdf-text.ts'
import { findAgreementsByLink, linkMailsTo, openAgreementsByLink } from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AgreementsTest/1.0'
const NOT_FOUND_BODY = {
  error: {
    code: 'AGREEMENT_NOT_FOUND',
    message:
      'No agreement found for this email address and phone number. Please check both, or complete Step 2 first.',
  },
}
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

const ANA = {
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana.lopez@example.com',
  phoneNumber: '(555) 223-4567',
}
const ANA_CONTACT = { email: ANA.email, phone: ANA.phoneNumber }

/** Ana Lopez's valid Step 2 answers, with overrides. */
function anaClaim(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return makeClaimData({ ...ANA, ...overrides })
}

/** The UTC calendar date `offsetDays` from now, YYYY-MM-DD. */
function utcDate(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
}

/** '2026-11-22' → 'November 22, 2026', as the agreement prints it. */
function dateInWords(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number)
  return `${MONTHS[month! - 1]} ${day}, ${year}`
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}

/** An attribute or text as the browser reads it: Handlebars writes "=" as "&#x3D;". */
function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The data URLs of every signature image in an agreement. */
function signatureImages(html: string): string[] {
  return [...html.matchAll(/<img class="signature-image" src="([^"]*)"/g)].map((match) =>
    decodeEntities(match[1]!),
  )
}

/** The file name a browser saves a download under; RFC 6266 allows it quoted or bare. */
function attachmentName(contentDisposition: string | undefined): string | undefined {
  return /^attachment;\s*filename=(?:"([^"]*)"|([^\s;]+))/
    .exec(contentDisposition ?? '')
    ?.slice(1)
    .find(Boolean)
}

function sectionNumbers(html: string): number[] {
  return [...html.matchAll(/<h3>(\d+)\. /g)].map((match) => Number(match[1]))
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: signed agreements`, () => {
    let ctx: TestContext
    const secondCopies: AgreementCopies[] = []

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await Promise.all(secondCopies.map((copies) => copies.stop()))
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    /** POST a claim as the browser does, with the date the form printed and a browser's User-Agent. */
    function submitClaim({
      slug = 'brigit',
      data = anaClaim(),
      agreementDate = utcDate(),
    }: { slug?: string; data?: Record<string, unknown>; agreementDate?: string } = {}) {
      return request(ctx.app)
        .post(`/api/forms/${slug}/submissions`)
        .set('User-Agent', USER_AGENT)
        .field('data', JSON.stringify(data))
        .field('agreementDate', agreementDate)
        .attach('screenshot', SCREENSHOT, 'statement.png')
    }

    function lookup(body: Record<string, unknown>, app: Express = ctx.app) {
      return request(app).post('/api/agreements/lookup').send(body)
    }

    function download(body: Record<string, unknown>) {
      return request(ctx.app).post('/api/agreements/download').send(body)
    }

    async function findRecords() {
      return ctx.db.selectFrom('agreement_records').selectAll().orderBy('id').execute()
    }

    async function findOnlyRecord() {
      const records = await findRecords()
      expect(records).toHaveLength(1)
      return records[0]!
    }

    /** A second server process on the same database. */
    /** Another server process's app over the same database; `perAddress` as PUBLIC_LIMIT_PER_ADDRESS. */
    function createSecondApp(perAddress = TEST_PUBLIC_LIMITS.perAddress): Express {
      const logger = createLogger('silent')
      const mailer = createAgreementMailer({
        smtpUrl: undefined,
        dataDir: ctx.dataDir,
        from: 'Claims <claims@example.com>',
        logger,
      })
      const agreementCopies = createAgreementCopies({
        db: ctx.db,
        mailer,
        forms: ctx.forms,
        agreementPdfs: ctx.agreementPdfs,
        logger,
      })
      secondCopies.push(agreementCopies)
      const agreementLinks = createAgreementLinks({ db: ctx.db, mailer, logger })
      return createApp({
        db: ctx.db,
        forms: ctx.forms,
        intake: ctx.intake,
        storage: ctx.storage,
        templates: TEMPLATES,
        agreementCopies,
        agreementLinks,
        logger,
        evidenceKey: ctx.evidenceKey,
        paymentsKey: ctx.paymentsKey,
        agreementPdfs: ctx.agreementPdfs,
        publicLimits: { ...TEST_PUBLIC_LIMITS, perAddress },
        proofOfWork: false,
      })
    }

    /** The .eml files in dataDir/outbox addressed to `address`. */
    function outboxMailsTo(address: string): string[] {
      const outbox = path.join(ctx.dataDir, 'outbox')
      if (!fs.existsSync(outbox)) return []
      return fs
        .readdirSync(outbox)
        .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
        .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
        .filter((eml) => new RegExp(`^To: .*${address.replace(/\./g, '\\.')}`, 'mi').test(eml))
    }

    describe('signing with a claim', () => {
      it('stores one signed record holding the agreement exactly as the form rendered it', async () => {
        const data = anaClaim()
        const date = utcDate()

        const res = await submitClaim({ data, agreementDate: date }).expect(201)

        const expectedHtml = TEMPLATES.render(
          'full-with-acknowledgment',
          agreementContext({ app: ctx.forms.get('brigit')!, answers: data, date }),
        )
        const record = await findOnlyRecord()
        // Number(): pg returns bigint ids as strings
        expect(Number(record.claim_id)).toBe(res.body.id)
        expect(record.template).toBe('full-with-acknowledgment')
        expect(record.html).toBe(expectedHtml)
        expect(record.sha256).toBe(sha256(expectedHtml))
        expect(record.template_version).toBe(TEMPLATES.version)
        // the server hands SQLite the agreement's UTF-8 bytes: they must be stored as text, searchable as such
        const { kind } = await sql<{ kind: string }>`
          SELECT ${sql.raw(dialect === 'sqlite' ? 'typeof(html)' : 'pg_typeof(html)::text')} AS kind
          FROM agreement_records`
          .execute(ctx.db)
          .then(({ rows }) => rows[0]!)
        expect(kind).toBe('text')
      })

      it('records the signature, the signing time, the IP address, the user agent and the consent text', async () => {
        const data = anaClaim()
        const before = Date.now()

        const res = await submitClaim({ data }).expect(201)

        const record = await findOnlyRecord()
        const signedAt = new Date(record.signed_at)
        expect(record.signature).toBe(data.signature)
        expect(signedAt.toISOString()).toBe(res.body.createdAt)
        expect(signedAt.getTime()).toBeGreaterThanOrEqual(before)
        expect(signedAt.getTime()).toBeLessThanOrEqual(Date.now())
        expect(record.ip_address).toMatch(LOOPBACK)
        expect(record.user_agent).toBe(USER_AGENT)
        expect(record.consent_text).toBe(ctx.forms.get('brigit')!.agreement.consent)
        expect(record.consent_text).toMatch(/^By signing above and submitting this form, I agree/)
      })

      it("shows the claimant's name, e-mail as typed, formatted phone, the date in words and the signature", async () => {
        const data = anaClaim({ email: '  Ana.Lopez@Example.com ', phoneNumber: '5552234567' })
        const date = utcDate()

        await submitClaim({ data, agreementDate: date }).expect(201)

        const { html } = await findOnlyRecord()
        expect(html).toContain('<p><strong>Name:</strong> Ana Lopez</p>')
        expect(html).toContain('<p><strong>E-mail:</strong> Ana.Lopez@Example.com</p>')
        expect(html).toContain('<p><strong>Phone:</strong> (555) 223-4567</p>')
        expect(html).toContain(`<p><strong>Date:</strong> ${dateInWords(date)}</p>`)
        expect(signatureImages(html)).toEqual([data.signature])
      })

      it.each([
        { when: 'yesterday', offset: -1 },
        { when: 'tomorrow', offset: 1 },
      ])("accepts the claimant's local date $when (another time zone) and prints it", async ({ offset }) => {
        const date = utcDate(offset)

        await submitClaim({ agreementDate: date }).expect(201)

        expect((await findOnlyRecord()).html).toContain(`<p><strong>Date:</strong> ${dateInWords(date)}</p>`)
      })

      it('is refused by the database when anything tries to change a signed record', async () => {
        await submitClaim().expect(201)
        const before = await findOnlyRecord()

        await expect(
          ctx.db.updateTable('agreement_records').set({ html: '<p>I agree to pay 99%.</p>' }).execute(),
        ).rejects.toThrow(/immutable/)

        expect(await findOnlyRecord()).toEqual(before)
      })

      it.each([
        { when: 'two days ago', offset: -2 },
        { when: 'two days ahead', offset: 2 },
        { when: 'a year ago', offset: -365 },
      ])(
        'answers 400 to an agreementDate $when, and stores no claim, record or screenshot',
        async ({ offset }) => {
          const res = await submitClaim({ agreementDate: utcDate(offset) })

          expect(res.status).toBe(400)
          expect(res.body.error.message).toMatch(/"agreementDate"/)
          expect(await countClaims(ctx.db)).toBe(0)
          expect(await findRecords()).toEqual([])
          expect(listScreenshotFiles(ctx.dataDir)).toEqual([])
        },
      )

      it('keeps no signed record for a claim refused as a duplicate phone', async () => {
        const first = await submitClaim().expect(201)

        const res = await submitClaim({ data: anaClaim({ firstName: 'Maria', email: 'maria@example.com' }) })

        expect(res.status).toBe(409)
        const record = await findOnlyRecord()
        expect(Number(record.claim_id)).toBe(first.body.id)
        expect(record.html).not.toContain('Maria')
      })

      it('e-mails the claimant one copy of the signed agreement, written to the outbox', async () => {
        const address = 'mail.copy@example.com'

        await submitClaim({ data: anaClaim({ email: address }) }).expect(201)

        // the copy waits for a quiet server, however long a loaded test machine takes to give it one
        await ctx.agreementCopies.settled()
        expect(outboxMailsTo(address)).toHaveLength(1)
        const eml = outboxMailsTo(address)[0]!
        expect(eml).toMatch(/^Subject: Your signed Brigit agreement$/m)
        expect(eml).toContain('Ana-Lopez-agreement.html')
        const start = eml.indexOf('\n\n', eml.indexOf('filename=')) + 2
        const attachment = Buffer.from(eml.slice(start, eml.indexOf('\n--', start)), 'base64').toString(
          'utf8',
        )
        expect(attachment).toContain((await findOnlyRecord()).html)
      })
    })

    describe('looking up one’s agreements', () => {
      it('finds the agreement by e-mail and phone, with its details and the html as signed', async () => {
        const created = await submitClaim({
          data: anaClaim({ cashAdvanceCount: 7, membershipMonths: 14 }),
        }).expect(201)

        const agreements = await findAgreementsByLink(ctx, ANA_CONTACT)

        expect(agreements).toEqual([
          {
            kind: 'claim',
            claimId: created.body.id,
            app: 'brigit',
            appName: 'Brigit',
            signedAt: created.body.createdAt,
            firstName: 'Ana',
            lastName: 'Lopez',
            email: 'ana.lopez@example.com',
            phoneNumber: '(555) 223-4567',
            cashAdvanceCount: 7,
            membershipMonths: 14,
            signatureMethod: 'drawn',
            typedSignature: null,
            html: (await findOnlyRecord()).html,
          },
        ])
      })

      it('matches the e-mail whatever its letter case and surrounding spaces', async () => {
        await submitClaim().expect(201)

        const agreements = await findAgreementsByLink(ctx, {
          email: '  ANA.Lopez@EXAMPLE.com ',
          phone: ANA.phoneNumber,
        })

        expect(agreements).toHaveLength(1)
      })

      it.each(['5552234567', '(555) 223-4567', '555-223-4567', '555.223.4567'])(
        'accepts the phone typed as %s',
        async (phone) => {
          await submitClaim().expect(201)

          const agreements = await findAgreementsByLink(ctx, { email: ANA.email, phone })

          expect(agreements.map((a) => (a.kind === 'claim' ? a.app : a.kind))).toEqual(['brigit'])
        },
      )

      it('e-mails no link for the right e-mail with a wrong phone, and answers as for a match', async () => {
        await submitClaim().expect(201)

        const right = await lookup(ANA_CONTACT)
        const wrongPhone = await lookup({ email: ANA.email, phone: '(555) 765-4321' })
        await ctx.agreementLinks.settled()

        expect([wrongPhone.status, wrongPhone.body]).toEqual([right.status, right.body])
        expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(1)
      })

      it('answers an unknown e-mail with the very same answer as a wrong phone', async () => {
        await submitClaim().expect(201)

        const wrongPhone = await lookup({ email: ANA.email, phone: '(555) 765-4321' })
        const unknownEmail = await lookup({ email: 'nobody@example.com', phone: ANA.phoneNumber })
        await ctx.agreementLinks.settled()

        expect(unknownEmail.status).toBe(202)
        expect(unknownEmail.body).toEqual(wrongPhone.body)
        expect(linkMailsTo(ctx.dataDir, ANA.email)).toEqual([])
        expect(linkMailsTo(ctx.dataDir, 'nobody@example.com')).toEqual([])
      })

      it('answers 422 "Please enter your email address" to a blank e-mail', async () => {
        const res = await lookup({ email: '   ', phone: ANA.phoneNumber })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.email.__errors).toEqual(['Please enter your email address'])
      })

      it('answers 422 "Please enter a valid email address" to an e-mail without a domain', async () => {
        const res = await lookup({ email: 'ana.lopez@', phone: ANA.phoneNumber })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.email.__errors).toEqual(['Please enter a valid email address'])
      })

      it('answers 422 asking for the phone when it is left blank', async () => {
        const res = await lookup({ email: ANA.email, phone: '' })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.phone.__errors).toEqual([
          'Please enter the phone number you used for Step 2',
        ])
        expect(res.body.error.fields.email).toBeUndefined()
      })

      it('lists the claims of several apps in the registry order: Super.com, Brigit, Earnin, DailyPay', async () => {
        for (const slug of ['dailypay', 'brigit', 'earnin', 'super-com'])
          await submitClaim({ slug }).expect(201)

        const agreements = await findAgreementsByLink(ctx, ANA_CONTACT)

        expect(agreements.map((a) => a.appName)).toEqual(['Super.com', 'Brigit', 'Earnin', 'DailyPay'])
      })

      it('answers the 11th lookup from one address within 15 minutes with 429 and Retry-After', async () => {
        const limited = createSecondApp(10)
        const first10: number[] = []
        for (let i = 0; i < 10; i++) first10.push((await lookup(ANA_CONTACT, limited)).status)

        const res = await lookup(ANA_CONTACT, limited)

        expect(first10).toEqual(Array<number>(10).fill(202))
        expect(res.status).toBe(429)
        expect(res.body.error.message).toBe(LOOKUP_RATE_LIMITED_MESSAGE)
        const retryAfter = Number(res.headers['retry-after'])
        expect(Number.isInteger(retryAfter)).toBe(true)
        expect(retryAfter).toBeGreaterThan(0)
        expect(retryAfter).toBeLessThanOrEqual(15 * 60)
      })

      it('shares the limit between two servers on the same database: 10 lookups in all', async () => {
        const [first, other] = [createSecondApp(10), createSecondApp(10)]
        const first10: number[] = []
        for (let i = 0; i < 10; i++) first10.push((await lookup(ANA_CONTACT, i % 2 ? other : first)).status)

        const onOther = await lookup(ANA_CONTACT, other)
        const onFirst = await lookup(ANA_CONTACT, first)

        expect(first10).not.toContain(429)
        expect(onOther.status).toBe(429)
        expect(onFirst.status).toBe(429)
      })
    })

    describe('downloading a signed agreement', () => {
      async function submitAna() {
        const res = await submitClaim().expect(201)
        const { downloadKey } = await openAgreementsByLink(ctx, ANA_CONTACT)
        return { key: downloadKey, claimId: res.body.id as number }
      }

      it('sends the HTML as an attachment named after the claimant', async () => {
        const own = await submitAna()

        const res = await download({ ...own, format: 'html' })

        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toMatch(/^text\/html/)
        expect(attachmentName(res.headers['content-disposition'])).toBe('Ana-Lopez-agreement.html')
      })

      it('shows what was signed on albert, whose agreement has no text: the consent and the signature', async () => {
        const res = await submitClaim({ slug: 'albert' }).expect(201)
        const record = await findOnlyRecord()
        expect(record.html).toBe('')

        const { downloadKey: key } = await openAgreementsByLink(ctx, ANA_CONTACT)
        const html = await download({ key, claimId: res.body.id, format: 'html' }).expect(200)
        const consent = ctx.forms.get('albert')!.agreement.consent
        expect(html.text).toContain(consent)
        expect(html.text).toContain(`<img class="signature-image" src="${record.signature}"`)
        const pdf = await download({ key, claimId: res.body.id, format: 'pdf' })
          .responseType('blob')
          .expect(200)
        const text = await pdfText(pdf.body as Buffer)
        expect(text).toContain('I agree to sign electronically')
      })

      it('holds the stored agreement byte for byte, with its SHA-256 and the IP it was signed from', async () => {
        const own = await submitAna()
        const record = await findOnlyRecord()

        const res = await download({ ...own, format: 'html' })

        expect(res.text).toContain(record.html)
        expect(res.text).toContain(record.sha256)
        expect(res.text).toContain(record.ip_address)
        expect(sha256(record.html)).toBe(record.sha256)
      })

      it("shows all 18 sections and the claimant's signature of a Brigit agreement", async () => {
        const own = await submitAna()

        const res = await download({ ...own, format: 'html' })

        expect(sectionNumbers(res.text)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1))
        expect(signatureImages(res.text)).toEqual([anaClaim().signature])
      })

      it('sends a PDF when asked for one', async () => {
        const own = await submitAna()

        const res = await download({ ...own, format: 'pdf' }).responseType('blob')

        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toBe('application/pdf')
        expect(attachmentName(res.headers['content-disposition'])).toBe('Ana-Lopez-agreement.pdf')
        expect(Buffer.isBuffer(res.body)).toBe(true)
        expect((res.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-')
      })

      it("answers 404 to another claimant's claim id with Ana's key", async () => {
        const own = await submitAna()
        const other = await submitClaim({
          data: anaClaim({ firstName: 'Maria', email: 'maria@example.com', phoneNumber: '(555) 223-9876' }),
        }).expect(201)

        const res = await download({ key: own.key, claimId: other.body.id, format: 'html' })

        expect(res.status).toBe(404)
        expect(res.body).toEqual(NOT_FOUND_BODY)
      })

      it('downloads nothing with the e-mail and phone alone', async () => {
        const own = await submitAna()

        const res = await download({ ...ANA_CONTACT, claimId: own.claimId, format: 'html' })

        expect(res.status).toBe(400)
        expect(res.body.error.message).toMatch(/"key"/)
      })

      it('answers 400 to a format other than html or pdf', async () => {
        const own = await submitAna()

        const res = await download({ ...own, format: 'docx' })

        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe('"format" must be "html" or "pdf"')
      })
    })

    describe('a name with markup in it', () => {
      it('is stored escaped in the agreement and returned as plain data by the lookup', async () => {
        await submitClaim({ data: anaClaim({ firstName: '<script>alert(1)</script>' }) }).expect(201)

        const { html } = await findOnlyRecord()
        const [agreement] = await findAgreementsByLink(ctx, ANA_CONTACT)

        expect(html).not.toMatch(/<script/i)
        expect(html).toContain('<p><strong>Name:</strong> &lt;script&gt;alert(1)&lt;/script&gt; Lopez</p>')
        expect(agreement!.firstName).toBe('<script>alert(1)</script>')
        expect(agreement!.html).toBe(html)
      })
    })
  })
}
