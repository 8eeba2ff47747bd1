import { Writable } from 'node:stream'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../server/logger.ts'
import { openAgreementsByLink } from '../support/agreement-link.ts'
import {
  ADMIN_EMAIL,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  pngDataUrl,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff, staffLogin } from '../support/staff-sign-in.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
const SITE = 'claims.test'
const DUPLICATE_CLAIM =
  'A submission with this phone number already exists. Multiple submissions will not increase your chances of compensation.'
const DUPLICATE_INTAKE =
  'A submission with this email and phone number already exists. Numerous submissions will not increase your chances of a payout. We e-mailed you a link to your claims, where you can add an app you missed.'

function postClaim(ctx: TestContext, data: Record<string, unknown>) {
  return request(ctx.app)
    .post('/api/forms/brigit/submissions')
    .field('data', JSON.stringify(data))
    .attach('screenshot', SCREENSHOT, 'statement.png')
}

function intake(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin', 'chime'],
    feesIncurred: ['Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Keoni',
    lastName: 'Kahananui',
    email: 'keoni.kahananui@example.com',
    phone: '(808) 555-0142',
    address: '77 Kapiolani Blvd',
    city: 'Honolulu',
    state: 'HI',
    zipCode: '96813',
    signature: pngDataUrl(),
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: races`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('stores exactly one of 50 parallel claims with the same phone; the others get the duplicate message', async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postClaim(ctx, makeClaimData({ phoneNumber: '(555) 777-0001', firstName: `Racer${i}` })),
        ),
      )
      expect(responses.filter((res) => res.status === 201)).toHaveLength(1)
      const losers = responses.filter((res) => res.status !== 201)
      expect(losers.every((res) => res.status === 409 && res.body.error.message === DUPLICATE_CLAIM)).toBe(
        true,
      )
      expect(await countClaims(ctx.db)).toBe(1)
      expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(1)
    })

    it('stores exactly one of 50 identical intakes, with its cases; the others get the duplicate message', async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => request(ctx.app).post('/api/intake').send(intake())),
      )
      expect(responses.filter((res) => res.status === 201)).toHaveLength(1)
      expect(
        responses.filter((res) => res.status === 409 && res.body.error.message === DUPLICATE_INTAKE),
      ).toHaveLength(49)
      const intakes = await ctx.db.selectFrom('form_submissions').select('id').execute()
      const cases = await ctx.db.selectFrom('intake_cases').select('app').execute()
      expect(intakes).toHaveLength(1)
      expect(cases.map((row) => row.app).sort()).toEqual(['chime', 'earnin'])
    })
  })
}

describe('sqlite: logs', () => {
  let ctx: TestContext
  const lines: string[] = []
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    ctx = await createTestContext('sqlite', { logger: createLogger('debug', sink) })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('carry a request id for every request and never a claimant’s e-mail, phone, name or signature', async () => {
    const claim = makeClaimData({
      firstName: 'Wilhelmina',
      lastName: 'Zyskowski',
      email: 'Wilhelmina.Zyskowski@Example.com',
      phoneNumber: '(602) 555-0177',
    })
    expect((await postClaim(ctx, claim)).status).toBe(201)
    expect((await postClaim(ctx, claim)).status).toBe(409)
    expect((await postClaim(ctx, { ...claim, email: 'not-an-email' })).status).toBe(422)
    expect(
      (
        await request(ctx.app)
          .post('/api/intake')
          .send(
            intake({
              firstName: 'Wilhelmina',
              lastName: 'Zyskowski',
              email: 'wilhelmina.zyskowski@example.com',
              phone: '(602) 555-0177',
            }),
          )
      ).status,
    ).toBe(201)
    const opened = await openAgreementsByLink(ctx, {
      email: 'wilhelmina.zyskowski@example.com',
      phone: '6025550177',
    })
    expect(opened.agreements).toHaveLength(2)
    await staffLogin(ctx.app, { site: SITE, email: ADMIN_EMAIL, password: 'wrong' }).expect(401)
    const cookie = await loginStaff(ctx.app, { site: SITE })
    const search = await request(ctx.app)
      .get('/api/staff/apps/brigit/submissions')
      .query({ q: 'zyskowski' })
      .set('Cookie', cookie)
    expect(search.body.count).toBe(1)
    expect(
      (await request(ctx.app).get('/api/staff/apps/brigit/export.csv').set('Cookie', cookie)).status,
    ).toBe(200)

    const log = lines.join('')
    const requests = lines
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string })
      .filter((entry) => entry.msg === 'request')
    expect(requests.length).toBeGreaterThanOrEqual(9)
    expect(requests.every((entry) => typeof entry.reqId === 'string' && entry.reqId.length > 0)).toBe(true)
    for (const secret of [
      'wilhelmina',
      'zyskowski',
      '555-0177',
      '6025550177',
      '555) 0177',
      String(claim.signature).slice(30, 60),
      // the link's token and the key it gave open the agreements: no log may hold them
      opened.token,
      opened.downloadKey,
    ]) {
      expect(log.toLowerCase()).not.toContain(secret.toLowerCase())
    }
  })
})
