import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '../../../src/app-error.ts'
import { isFormOpen } from '../../../src/form-config.ts'
import {
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  type TestContext,
  type TestDialect,
} from '../support/helpers.ts'
import {
  expectationFor,
  multipartBody,
  ODD_LEGAL_TEXT,
  type Expectation,
  type Part,
  type RawRequest,
} from '../support/malformed-arbitraries.ts'
import { buildClaimRequest, claimStatuses, malformedClaim } from '../support/malformed-claims.ts'
import {
  buildIntakeRequest,
  intakeStatuses,
  makeIntakeData,
  malformedIntake,
} from '../support/malformed-intakes.ts'

/**
 * Property-based: thousands of generated malformed Step 2 claims and intakes (wrong types, missing and
 * unknown fields, huge strings, odd Unicode, broken multipart, wrong Content-Type, bad dates and
 * signatures). Every answer must be a 4xx JSON error that names the problem, and nothing may be stored.
 * A failure prints fast-check's seed and path; FC_SEED=<seed> replays a run.
 */
// each run draws new cases (unless FC_SEED is set): the suite's many runs add up to far more than one
const RUNS: Record<TestDialect, { claims: number; intakes: number }> = {
  sqlite: { claims: 600, intakes: 400 },
  postgres: { claims: 300, intakes: 200 },
}
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED)
const SCREENSHOT = makePng({ width: 16, height: 8 })

/** Sends the bytes as they are: no serializer, and only the headers given. */
function send(ctx: TestContext, raw: RawRequest) {
  let req = request(ctx.app)
    .post(raw.path)
    .serialize((body: unknown) => body as string)
  for (const [name, value] of Object.entries(raw.headers)) req = req.set(name, value)
  return req.send(raw.body)
}

/** Everything a client reads in the answer: the message, the field names and their messages. */
function whatTheAnswerSays(error: ErrorBody['error'] | undefined): string {
  if (!error) return ''
  const fields = Object.entries(error.fields ?? {}).flatMap(([field, { __errors }]) => [
    `"${field}"`,
    ...__errors,
  ])
  return [error.message, ...fields].join('\n').toLowerCase()
}

function expectRefusal(res: request.Response, expected: Expectation): void {
  const error = (res.body as Partial<ErrorBody> | undefined)?.error
  const answer = `${res.status} ${res.headers['content-type']} ${JSON.stringify(res.body).slice(0, 400)}`
  expect(expected.statuses, answer).toContain(res.status)
  expect(res.headers['content-type'], answer).toMatch(/^application\/json/)
  expect(error?.code, answer).toMatch(/^[A-Z_]+$/)
  expect(error?.message.trim(), answer).not.toBe('')
  const said = whatTheAnswerSays(error)
  const named = expected.names.filter((name) => said.includes(name.toLowerCase()))
  expect(named, `${answer} should name one of ${JSON.stringify(expected.names)}`).not.toEqual([])
  for (const field of expected.fields) {
    expect(Object.hasOwn(error?.fields ?? {}, field), `${answer} should list the field "${field}"`).toBe(true)
  }
}

/** A distinct valid phone per request, so a wrongly accepted claim cannot hide behind a duplicate. */
function phoneFor(n: number, area = 555): string {
  // the exchange starts with 2, as a real US exchange does
  const digits = String(2_000_000 + n)
  return `(${area}) ${digits.slice(0, 3)}-${digits.slice(3, 7)}`
}

function listOutbox(dataDir: string): string[] {
  const outbox = path.join(dataDir, 'outbox')
  return fs.existsSync(outbox) ? fs.readdirSync(outbox) : []
}

async function countRows(ctx: TestContext, table: 'agreement_records' | 'form_submissions' | 'intake_cases') {
  const { count } = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** What a refused request must leave behind: nothing. */
async function whatWasStored(ctx: TestContext) {
  return {
    claims: await countClaims(ctx.db),
    agreementRecords: await countRows(ctx, 'agreement_records'),
    intakes: await countRows(ctx, 'form_submissions'),
    intakeCases: await countRows(ctx, 'intake_cases'),
    screenshots: listScreenshotFiles(ctx.dataDir),
    outbox: listOutbox(ctx.dataDir),
  }
}

const NOTHING = { claims: 0, agreementRecords: 0, intakes: 0, intakeCases: 0, screenshots: [], outbox: [] }

function openSlugsOf(ctx: TestContext): string[] {
  return [...ctx.forms.values()].filter(isFormOpen).map((form) => form.slug)
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: malformed input`, () => {
    // on a database of its own: the agreement copies of these claims are e-mailed (into the outbox) later
    describe('the valid requests every malformed one is made from', () => {
      let ctx: TestContext
      beforeAll(async () => {
        ctx = await createTestContext(dialect)
      })
      afterAll(async () => {
        await ctx?.close()
      })

      it('accepts a claim built without a fault for every open app, odd but legal names included', async () => {
        const openSlugs = openSlugsOf(ctx)
        for (const [n, slug] of openSlugs.entries()) {
          const names = {
            firstName: ODD_LEGAL_TEXT[n % ODD_LEGAL_TEXT.length]!,
            lastName: ODD_LEGAL_TEXT.at(-1 - n)!,
          }
          const { request: raw, faults } = buildClaimRequest(
            { slug, faults: [], names },
            phoneFor(n, 444),
            new Date(),
          )
          expect(faults).toEqual([])
          const res = await send(ctx, raw)
          expect(res.status, JSON.stringify(res.body)).toBe(201)
        }
        expect(await countClaims(ctx.db)).toBe(openSlugs.length)
      })

      it('accepts an intake built without a fault, odd but legal names included', async () => {
        for (const [n, firstName] of ODD_LEGAL_TEXT.entries()) {
          const { request: raw } = buildIntakeRequest(
            { faults: [], names: { firstName, lastName: 'Doe' } },
            `808${2_000_000 + n}`,
          )
          const res = await send(ctx, raw)
          expect(res.status, JSON.stringify(res.body)).toBe(201)
        }
        expect(await countRows(ctx, 'form_submissions')).toBe(ODD_LEGAL_TEXT.length)
      })
    })

    describe('malformed requests', () => {
      let ctx: TestContext
      let openSlugs: string[]
      beforeAll(async () => {
        ctx = await createTestContext(dialect)
        openSlugs = openSlugsOf(ctx)
      })
      afterAll(async () => {
        await ctx?.close()
      })

      it(`answers ${RUNS[dialect].claims} generated malformed Step 2 claims with a 4xx JSON error naming the problem, and stores nothing`, async () => {
        let sent = 0
        await fc.assert(
          fc.asyncProperty(
            malformedClaim(openSlugs, () => new Date()),
            async (claim) => {
              sent++
              const { request: raw, faults } = buildClaimRequest(claim, phoneFor(sent), new Date())
              const res = await send(ctx, raw)
              expectRefusal(res, expectationFor(faults, claimStatuses))
              const stored = await whatWasStored(ctx)
              expect(
                stored,
                `left behind by ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
              ).toEqual(NOTHING)
            },
          ),
          { numRuns: RUNS[dialect].claims, seed: SEED },
        )
        expect(sent).toBe(RUNS[dialect].claims)
      }, 120_000)

      it(`answers ${RUNS[dialect].intakes} generated malformed intakes with a 4xx JSON error naming the problem, and stores nothing`, async () => {
        let sent = 0
        await fc.assert(
          fc.asyncProperty(malformedIntake(), async (intake) => {
            sent++
            const { request: raw, faults } = buildIntakeRequest(intake, `808${2_000_000 + sent}`)
            const res = await send(ctx, raw)
            expectRefusal(res, expectationFor(faults, intakeStatuses))
            const stored = await whatWasStored(ctx)
            expect(stored, `left behind by ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`).toEqual(
              NOTHING,
            )
          }),
          { numRuns: RUNS[dialect].intakes, seed: SEED },
        )
        expect(sent).toBe(RUNS[dialect].intakes)
      }, 120_000)

      describe('inputs that once got a 500, were stored, froze the server or got an unhelpful answer', () => {
        /** A claim request from its text fields and its one screenshot, as a browser sends it. */
        function claimRequest(
          data: unknown,
          { slug = 'brigit', contentType }: { slug?: string; contentType?: string } = {},
        ) {
          const parts: Part[] = [
            { name: 'data', value: Buffer.from(JSON.stringify(data)) },
            { name: 'screenshot', value: SCREENSHOT, filename: 'statement.png', contentType: 'image/png' },
          ]
          return send(ctx, {
            path: `/api/forms/${slug}/submissions`,
            headers: { 'Content-Type': contentType ?? 'multipart/form-data; boundary=b0undary' },
            body: multipartBody(parts, 'b0undary'),
          })
        }

        function intakeRequest(body: string, contentType = 'application/json') {
          return send(ctx, {
            path: '/api/intake',
            headers: { 'Content-Type': contentType },
            body: Buffer.from(body),
          })
        }

        it.each([
          ['NUL', 'Ja\u0000ne'],
          ['an unpaired surrogate', 'Ja\ud800ne'],
          ['an escape character', 'Ja\u001bne'],
        ])('refuses a first name holding %s with 422 naming "firstName"', async (_what, firstName) => {
          const res = await claimRequest(makeClaimData({ firstName, phoneNumber: '5552001111' }))

          expect(res.status).toBe(422)
          expect(res.body.error.fields.firstName.__errors[0]).toMatch(
            /^First Name contains a character that is not allowed/,
          )
          expect(await whatWasStored(ctx)).toEqual(NOTHING)
        })

        it('refuses an intake whose city holds NUL with 422 naming "city"', async () => {
          const res = await intakeRequest(JSON.stringify(makeIntakeData({ city: 'Hono\u0000lulu' })))

          expect(res.status).toBe(422)
          expect(Object.keys(res.body.error.fields)).toEqual(['city'])
          expect(await whatWasStored(ctx)).toEqual(NOTHING)
        })

        it('refuses multipart/mixed with 400 naming the Content-Type', async () => {
          const res = await claimRequest(makeClaimData(), {
            contentType: 'multipart/mixed; boundary=b0undary',
          })

          expect(res.status).toBe(400)
          expect(res.body.error.message).toContain('Content-Type is "multipart/mixed; boundary=b0undary"')
        })

        it('refuses a misspelt "agreementdate" field instead of signing with today\'s date', async () => {
          const body = multipartBody(
            [
              {
                name: 'data',
                value: Buffer.from(JSON.stringify(makeClaimData({ phoneNumber: '5552002222' }))),
              },
              { name: 'agreementdate', value: Buffer.from('2001-01-01') },
              { name: 'screenshot', value: SCREENSHOT, filename: 'statement.png', contentType: 'image/png' },
            ],
            'b0undary',
          )
          const res = await send(ctx, {
            path: '/api/forms/brigit/submissions',
            headers: { 'Content-Type': 'multipart/form-data; boundary=b0undary' },
            body,
          })

          expect(res.status).toBe(400)
          expect(res.body.error.message).toMatch(/^"agreementdate" is not a field of a claim request/)
          expect(await whatWasStored(ctx)).toEqual(NOTHING)
        })

        it('answers an email of 200,000 dots (quadratic for its pattern) at once with 422 naming "email"', async () => {
          const res = await claimRequest(makeClaimData({ email: `a@${'x.'.repeat(100_000)} y` }))

          expect(res.status).toBe(422)
          expect(res.body.error.fields.email.__errors).toEqual(['Please enter a valid email address'])
        })

        it('answers an intake listing 700,000 apps at once with 422 naming "cashAdvanceApps"', async () => {
          const res = await intakeRequest(
            JSON.stringify(makeIntakeData({ cashAdvanceApps: Array(700_000).fill(1) })),
          )

          expect(res.status).toBe(422)
          expect(res.body.error.fields).toEqual({
            cashAdvanceApps: { __errors: ['Please choose from the apps listed'] },
          })
        })

        it('names 20 of 50,000 unknown fields instead of answering with every one', async () => {
          const data = makeClaimData()
          for (let i = 0; i < 50_000; i++) data[`extra${i}`] = i
          const res = await claimRequest(data)

          expect(res.status).toBe(422)
          expect(Object.keys(res.body.error.fields)).toEqual(
            Array.from({ length: 20 }, (_, i) => `extra${i}`),
          )
        })

        it('says a null intake body is not a JSON object, instead of calling it invalid JSON', async () => {
          const res = await intakeRequest('null')

          expect(res.status).toBe(400)
          expect(res.body.error.message).toBe('send the intake as a JSON object, not null')
        })

        it('names the Content-Type of an intake sent as text/plain', async () => {
          const res = await intakeRequest(JSON.stringify(makeIntakeData()), 'text/plain')

          expect(res.status).toBe(400)
          expect(res.body.error.message).toContain('Content-Type is "text/plain"')
          expect(await whatWasStored(ctx)).toEqual(NOTHING)
        })
      })
    })
  })
}
