import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const DUPLICATE_MESSAGE =
  'A submission with this phone number already exists. Multiple submissions will not increase your chances of compensation.'

interface Upload {
  bytes: Buffer
  name: string
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: step 2 claims`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    /** POST a claim the way the browser does: multipart with a JSON `data` field and a `screenshot` file. */
    function submitClaim({
      slug = 'brigit',
      data = makeClaimData(),
      file = { bytes: SCREENSHOT, name: 'statement.png' },
    }: { slug?: string; data?: unknown; file?: Upload | null } = {}) {
      const req = request(ctx.app)
        .post(`/api/forms/${slug}/submissions`)
        .field('data', typeof data === 'string' ? data : JSON.stringify(data))
      return file ? req.attach('screenshot', file.bytes, file.name) : req
    }

    async function expectNothingStored(): Promise<void> {
      expect(await countClaims(ctx.db)).toBe(0)
      expect(listScreenshotFiles(ctx.dataDir)).toEqual([])
    }

    async function findOnlyClaim() {
      const rows = await ctx.db.selectFrom('claims').selectAll().execute()
      expect(rows).toHaveLength(1)
      return rows[0]!
    }

    describe('a valid claim', () => {
      it('answers 201 with the new claim id, its creation time and no next app (it has no intake)', async () => {
        const res = await submitClaim()

        expect(res.status).toBe(201)
        expect(res.body).toEqual({ id: expect.any(Number), createdAt: expect.any(String), nextSteps: [] })
        expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt)
        // Number(): pg returns bigserial (int8) ids as strings, although ClaimsTable types id as number
        expect(Number((await findOnlyClaim()).id)).toBe(res.body.id)
      })

      it('stores the names trimmed and the email lowercased and trimmed', async () => {
        await submitClaim({
          data: makeClaimData({ firstName: '  Jane ', lastName: ' Doe  ', email: '  Jane.Doe@Example.COM ' }),
        }).expect(201)

        const row = await findOnlyClaim()
        expect(row).toMatchObject({
          app: 'brigit',
          first_name: 'Jane',
          last_name: 'Doe',
          email: 'jane.doe@example.com',
        })
      })

      it('stores a phone sent as bare digits formatted as (555) 223-4567', async () => {
        await submitClaim({ data: makeClaimData({ phoneNumber: '5552234567' }) }).expect(201)

        expect((await findOnlyClaim()).phone_number).toBe('(555) 223-4567')
      })

      it('stores the cash advance count and the membership months as integers', async () => {
        await submitClaim({ data: makeClaimData({ cashAdvanceCount: 3, membershipMonths: 12 }) }).expect(201)

        const row = await findOnlyClaim()
        expect(row.cash_advance_count).toBe(3)
        expect(row.membership_months).toBe(12)
      })

      it('saves the screenshot byte for byte under a generated name in the app folder', async () => {
        await submitClaim({ file: { bytes: SCREENSHOT, name: '../../My Statement.PNG' } }).expect(201)

        const row = await findOnlyClaim()
        expect(row.screenshot_key).toMatch(/^brigit-screenshots\/\d+-[0-9a-f]+\.png$/)
        expect(listScreenshotFiles(ctx.dataDir)).toEqual([row.screenshot_key])
        expect(fs.readFileSync(path.join(ctx.dataDir, 'screenshots', row.screenshot_key))).toEqual(SCREENSHOT)
      })

      it('records the screenshot type from the file content', async () => {
        await submitClaim().expect(201)

        expect((await findOnlyClaim()).screenshot_type).toBe('image/png')
      })

      it("keeps the drawn signature in the claim's signed record", async () => {
        const data = makeClaimData()
        await submitClaim({ data }).expect(201)

        const claim = await findOnlyClaim()
        const record = await ctx.db
          .selectFrom('agreement_records')
          .select('signature')
          .where('claim_id', '=', claim.id)
          .executeTakeFirstOrThrow()
        expect(record.signature).toBe(data.signature)
      })
    })

    describe('a claim that breaks a Step 2 rule', () => {
      const NOT_PNG = `data:image/png;base64,${Buffer.from('not a png').toString('base64')}`
      // a value of undefined leaves the field out of the JSON
      const cases: { field: string; value: unknown; message: string }[] = [
        { field: 'firstName', value: '', message: 'First name is required' },
        { field: 'firstName', value: '   ', message: 'First name is required' },
        { field: 'firstName', value: undefined, message: 'First name is required' },
        { field: 'lastName', value: '', message: 'Last name is required' },
        { field: 'lastName', value: ' \t ', message: 'Last name is required' },
        { field: 'email', value: undefined, message: 'Email is required' },
        { field: 'email', value: 'jane@', message: 'Please enter a valid email address' },
        { field: 'email', value: 'jane doe at example', message: 'Please enter a valid email address' },
        { field: 'phoneNumber', value: undefined, message: 'Phone number is required' },
        { field: 'phoneNumber', value: '', message: 'Phone number is required' },
        { field: 'phoneNumber', value: '555-1234', message: 'Please enter a valid 10-digit phone number' },
        { field: 'email', value: '   ', message: 'Email is required' },
        { field: 'cashAdvanceCount', value: 0, message: 'Please enter a valid number between 1 and 100' },
        { field: 'cashAdvanceCount', value: 101, message: 'Please enter a valid number between 1 and 100' },
        { field: 'cashAdvanceCount', value: 2.5, message: 'Please enter a valid number between 1 and 100' },
        { field: 'membershipMonths', value: 0, message: 'Please enter a valid number between 1 and 36' },
        { field: 'membershipMonths', value: 37, message: 'Please enter a valid number between 1 and 36' },
        { field: 'membershipMonths', value: '12', message: 'Please enter a valid number between 1 and 36' },
        { field: 'signature', value: undefined, message: 'Please provide your signature' },
        { field: 'signature', value: '', message: 'Please provide your signature' },
        { field: 'signature', value: NOT_PNG, message: 'Please provide your signature' },
      ]

      it.each(cases)(
        'answers 422 "$message" when $field is $value, and stores nothing',
        async ({ field, value, message }) => {
          const res = await submitClaim({ data: makeClaimData({ [field]: value }) })

          expect(res.status).toBe(422)
          expect(res.body.error.code).toBe('VALIDATION_FAILED')
          expect(res.body.error.fields[field].__errors[0]).toBe(message)
          await expectNothingStored()
        },
      )

      it('answers 422 "Bank statement screenshot is required" when no file is attached, and stores nothing', async () => {
        const res = await submitClaim({ file: null })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.screenshotFile.__errors[0]).toBe('Bank statement screenshot is required')
        await expectNothingStored()
      })

      it('ignores a screenshot name sent in the JSON without a file, and answers 422', async () => {
        const res = await submitClaim({
          data: makeClaimData({ screenshotFile: 'statement.png' }),
          file: null,
        })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.screenshotFile.__errors[0]).toBe('Bank statement screenshot is required')
        await expectNothingStored()
      })

      it('answers 422 naming a field the form does not have, and stores nothing', async () => {
        const res = await submitClaim({ data: makeClaimData({ ssn: '123-45-6789' }) })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.ssn.__errors[0]).toMatch(/"ssn"/)
        await expectNothingStored()
      })

      it('reports every broken field at once', async () => {
        const res = await submitClaim({
          data: makeClaimData({ firstName: '', email: 'nope', membershipMonths: 99 }),
        })

        expect(res.status).toBe(422)
        expect(res.body.error.fields).toMatchObject({
          firstName: { __errors: ['First name is required'] },
          email: { __errors: ['Please enter a valid email address'] },
          membershipMonths: { __errors: ['Please enter a valid number between 1 and 36'] },
        })
        await expectNothingStored()
      })
    })

    describe('the screenshot file', () => {
      it('answers 422 "Please upload an image file" for a text file renamed .png, and stores nothing', async () => {
        const res = await submitClaim({ file: { bytes: readFixture('notes.png'), name: 'notes.png' } })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.screenshotFile.__errors[0]).toBe('Please upload an image file')
        await expectNothingStored()
      })

      it('answers 422 "Please upload an image file" for an HTML page renamed .png, and stores nothing', async () => {
        const res = await submitClaim({ file: { bytes: readFixture('page.png'), name: 'page.png' } })

        expect(res.status).toBe(422)
        expect(res.body.error.fields.screenshotFile.__errors[0]).toBe('Please upload an image file')
        await expectNothingStored()
      })

      it('answers 413 "File size must be less than 10MB" for a file of 10 MB and one byte, and stores nothing', async () => {
        const png = makePng({ width: 8, height: 8 })
        const bytes = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)])

        const res = await submitClaim({ file: { bytes, name: 'huge.png' } })

        expect(res.status).toBe(413)
        expect(res.body.error.message).toBe('File size must be less than 10MB')
        await expectNothingStored()
      })

      it('accepts a screenshot of exactly 10 MB', async () => {
        const png = makePng({ width: 8, height: 8 })
        const bytes = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 - png.length)])

        await submitClaim({ file: { bytes, name: 'big.png' } }).expect(201)

        expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(1)
      })
    })

    describe('which app the claim is for', () => {
      it('answers 404 for an app that has no form, and stores nothing', async () => {
        const res = await submitClaim({ slug: 'nope' })

        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('FORM_NOT_FOUND')
        await expectNothingStored()
      })

      it('answers 410 with the closed notice for klover, and stores nothing', async () => {
        const res = await submitClaim({ slug: 'klover' })

        expect(res.status).toBe(410)
        expect(res.body.error.code).toBe('FORM_CLOSED')
        expect(res.body.error.message).toContain('Step 2 Submission Deadline Passed')
        await expectNothingStored()
      })
    })

    describe('a malformed request', () => {
      it('answers 400 when the data field is missing, and stores nothing', async () => {
        const res = await request(ctx.app)
          .post('/api/forms/brigit/submissions')
          .attach('screenshot', SCREENSHOT, 'statement.png')

        expect(res.status).toBe(400)
        expect(res.body.error.code).toBe('BAD_REQUEST')
        await expectNothingStored()
      })

      it('answers 400 when the data field is not valid JSON, and stores nothing', async () => {
        const res = await submitClaim({ data: '{"firstName": "Jane",' })

        expect(res.status).toBe(400)
        expect(res.body.error.message).toMatch(/not valid JSON/)
        await expectNothingStored()
      })

      it('answers 400 when the data field is JSON but not an object, and stores nothing', async () => {
        const res = await submitClaim({ data: '["Jane", "Doe"]' })

        expect(res.status).toBe(400)
        await expectNothingStored()
      })

      it('answers 400 when the claim is sent as a JSON body instead of multipart, and stores nothing', async () => {
        const res = await request(ctx.app)
          .post('/api/forms/brigit/submissions')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(makeClaimData()))

        expect(res.status).toBe(400)
        expect(res.body.error.message).toMatch(/multipart\/form-data/)
        await expectNothingStored()
      })
    })

    describe('one claim per phone number per app', () => {
      it('answers 409 with the duplicate message for a second claim with the same phone, and keeps only the first', async () => {
        await submitClaim().expect(201)
        const [firstFile] = listScreenshotFiles(ctx.dataDir)

        const res = await submitClaim({
          data: makeClaimData({ firstName: 'John', email: 'john@example.com' }),
        })

        expect(res.status).toBe(409)
        expect(res.body.error.message).toBe(DUPLICATE_MESSAGE)
        expect((await findOnlyClaim()).first_name).toBe('Jane')
        expect(listScreenshotFiles(ctx.dataDir)).toEqual([firstFile])
      })

      it('treats the same phone written differently as a duplicate', async () => {
        await submitClaim({ data: makeClaimData({ phoneNumber: '(555) 223-4567' }) }).expect(201)

        const res = await submitClaim({ data: makeClaimData({ phoneNumber: '555.223.4567' }) })

        expect(res.status).toBe(409)
        expect(await countClaims(ctx.db)).toBe(1)
        expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(1)
      })

      it('accepts the same phone for a different app', async () => {
        await submitClaim({ slug: 'brigit' }).expect(201)

        await submitClaim({ slug: 'earnin' }).expect(201)

        const apps = (await ctx.db.selectFrom('claims').select('app').orderBy('app').execute()).map(
          (r) => r.app,
        )
        expect(apps).toEqual(['brigit', 'earnin'])
        expect(listScreenshotFiles(ctx.dataDir)).toEqual([
          expect.stringMatching(/^brigit-screenshots\//),
          expect.stringMatching(/^earnin-screenshots\//),
        ])
      })

      it('lets exactly one of 20 simultaneous claims with the same phone through', async () => {
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            submitClaim({ data: makeClaimData({ email: `racer${i}@example.com` }) }),
          ),
        )

        const statuses = responses.map((res) => res.status).sort()
        expect(statuses).toEqual([201, ...Array<number>(19).fill(409)])
        for (const res of responses.filter((r) => r.status === 409)) {
          expect(res.body.error.message).toBe(DUPLICATE_MESSAGE)
        }
        expect(await countClaims(ctx.db)).toBe(1)
        expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(1)
      })
    })

    describe('reading a form config', () => {
      it('answers GET /api/forms/brigit with the title and the schema the browser draws the form from', async () => {
        const res = await request(ctx.app).get('/api/forms/brigit')

        expect(res.status).toBe(200)
        expect(res.body.title).toEqual({ app: 'Brigit', product: 'Cash Advance Claim' })
        expect(res.body.schema.required).toContain('phoneNumber')
        expect(res.body.schema.properties.email.errorMessage.required).toBe('Email is required')
        // the widget shows its own label, under the agreement it draws above the pad
        expect(res.body.uiSchema.signature).toEqual({ 'ui:widget': 'signature', 'ui:label': false })
      })

      it('answers GET /api/forms/nope with a 404 JSON error', async () => {
        const res = await request(ctx.app).get('/api/forms/nope')

        expect(res.status).toBe(404)
        expect(res.headers['content-type']).toMatch(/application\/json/)
        expect(res.body).toEqual({ error: { code: 'FORM_NOT_FOUND', message: 'form "nope" not found' } })
      })

      it('answers GET /api/forms/brigit/validator.js with its precompiled validator, under a CSP without eval', async () => {
        const res = await request(ctx.app).get('/api/forms/brigit/validator.js')

        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toMatch(/^text\/javascript/)
        expect(res.text).toContain('validateFns')
        expect(res.text).not.toMatch(/\brequire\(/)
        expect(res.headers['content-security-policy']).toContain("script-src 'self'")
        expect(res.headers['content-security-policy']).not.toContain('unsafe-eval')
      })

      it('answers GET /api/forms/nope/validator.js with a 404 JSON error', async () => {
        const res = await request(ctx.app).get('/api/forms/nope/validator.js')

        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('FORM_NOT_FOUND')
      })
    })
  })
}
