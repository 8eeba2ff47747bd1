import { linkMailsTo } from '../support/agreement-link.ts'
import type { Express } from 'express'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../server/app.ts'
import { readServerConfig } from '../../../server/config.ts'
import { createLogger } from '../../../server/logger.ts'
import {
  encodeProofOfWork,
  PROOF_OF_WORK_HEADER,
  PROOF_OF_WORK_LIFETIME_MS,
  solveProofOfWork,
  type ProofOfWorkChallenge,
} from '../../../src/proof-of-work.ts'
import {
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  TEMPLATES,
  TEST_PUBLIC_LIMITS,
  type TestContext,
} from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
// small enough to solve at once in a test; the product's range is the browser's budget (BENCHMARKS.md)
const TUNING = { maxNumber: 2000 }
const MISSING = {
  code: 'PROOF_OF_WORK_MISSING',
  message:
    'This form’s automatic security check did not arrive with it. Please reload the page and try again.',
}
const INVALID = {
  code: 'PROOF_OF_WORK_INVALID',
  message: 'This form’s automatic security check did not pass. Please reload the page and try again.',
}
const USED = {
  code: 'PROOF_OF_WORK_USED',
  message: 'This form’s automatic security check was already used. Please submit again.',
}
const EXPIRED = {
  code: 'PROOF_OF_WORK_EXPIRED',
  message: 'This form’s automatic security check has expired. Please submit again.',
}

async function fetchChallenge(app: Express): Promise<ProofOfWorkChallenge> {
  const res = await request(app).get('/api/proof-of-work').expect(200)
  expect(res.headers['cache-control']).toBe('no-store')
  return res.body as ProofOfWorkChallenge
}

/** What a browser sends after solving the server's challenge. */
async function solved(app: Express): Promise<string> {
  const challenge = await fetchChallenge(app)
  return encodeProofOfWork(challenge, solveProofOfWork(challenge)!)
}

/** A payload whose number is not the challenge's. */
async function wronglySolved(app: Express): Promise<string> {
  const challenge = await fetchChallenge(app)
  return encodeProofOfWork(challenge, solveProofOfWork(challenge)! + 1)
}

function withProof(proof: string | undefined) {
  return proof === undefined ? {} : { [PROOF_OF_WORK_HEADER]: proof }
}

describe('PROOF_OF_WORK', () => {
  it('is on unless set to off, and stops start-up naming the setting when it is neither', () => {
    expect(readServerConfig({}).proofOfWork).toBe(true)
    expect(readServerConfig({ PROOF_OF_WORK: 'on' }).proofOfWork).toBe(true)
    expect(readServerConfig({ PROOF_OF_WORK: ' OFF ' }).proofOfWork).toBe(false)
    expect(() => readServerConfig({ PROOF_OF_WORK: 'no' })).toThrow(
      'PROOF_OF_WORK "no" must be on or off (unset: on)',
    )
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: the proof of work on the public forms`, () => {
    let ctx: TestContext
    let clock = Date.now()
    beforeAll(async () => {
      ctx = await createTestContext(dialect, {
        proofOfWork: true,
        proofOfWorkTuning: { ...TUNING, now: () => clock },
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** Another server process over the same database: an app of its own, sharing nothing in memory. */
    function secondApp(): Express {
      return createApp({
        db: ctx.db,
        forms: ctx.forms,
        intake: ctx.intake,
        storage: ctx.storage,
        templates: TEMPLATES,
        agreementCopies: ctx.agreementCopies,
        logger: createLogger('silent'),
        evidenceKey: ctx.evidenceKey,
        paymentsKey: ctx.paymentsKey,
        agreementPdfs: ctx.agreementPdfs,
        agreementLinks: ctx.agreementLinks,
        publicLimits: TEST_PUBLIC_LIMITS,
        proofOfWork: true,
        proofOfWorkTuning: TUNING,
      })
    }

    function claim(proof: string | undefined, phone: string, app: Express = ctx.app) {
      return request(app)
        .post('/api/forms/brigit/submissions')
        .set(withProof(proof))
        .field(
          'data',
          JSON.stringify(makeClaimData({ phoneNumber: phone, email: `${phone.slice(-4)}@example.com` })),
        )
        .attach('screenshot', SCREENSHOT, 'statement.png')
    }
    function intake(proof: string | undefined, phone: string) {
      return request(ctx.app)
        .post('/api/intake')
        .set(withProof(proof))
        .send(makeIntakeData({ phone, email: `${phone.slice(-4)}@example.com` }))
    }
    function lookup(proof: string | undefined, contact: { email: string; phone: string }) {
      return request(ctx.app).post('/api/agreements/lookup').set(withProof(proof)).send(contact)
    }

    async function stored() {
      const { n } = await ctx.db
        .selectFrom('form_submissions')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirstOrThrow()
      const limits = await ctx.db.selectFrom('rate_limits').select('key').execute()
      return {
        claims: await countClaims(ctx.db),
        screenshots: listScreenshotFiles(ctx.dataDir).length,
        intakes: Number(n),
        // the lookup's own limit counts a search once it is past the check
        lookupsCounted: limits.filter(({ key }) => key.startsWith('agreement-lookup')).length,
      }
    }

    it('takes a claim, an intake and a lookup each sent with a solved challenge', async () => {
      await claim(await solved(ctx.app), '(555) 223-1001').expect(201)
      await intake(await solved(ctx.app), '8085551001').expect(201)
      const res = await lookup(await solved(ctx.app), { email: '1001@example.com', phone: '5552231001' })
      expect(res.status).toBe(202)
      await ctx.agreementLinks.settled()
      expect(linkMailsTo(ctx.dataDir, '1001@example.com')).toHaveLength(1)
    })

    it('refuses a bot that skips the proof of work with 400, and stores nothing', async () => {
      const before = await stored()
      for (const res of [
        await claim(undefined, '(555) 223-1002'),
        await intake(undefined, '8085551002'),
        await lookup(undefined, { email: '1001@example.com', phone: '5552231001' }),
      ]) {
        expect(res.status).toBe(400)
        expect(res.body.error).toEqual(MISSING)
      }
      expect(await stored()).toEqual(before)
    })

    it('refuses a malformed payload and a wrong number with 400, and stores nothing', async () => {
      const before = await stored()
      const forged = Buffer.from(JSON.stringify({ algorithm: 'SHA-256', number: 1 })).toString('base64')
      for (const proof of ['not base64 at all!', forged, await wronglySolved(ctx.app)]) {
        for (const res of [
          await claim(proof, '(555) 223-1003'),
          await intake(proof, '8085551003'),
          await lookup(proof, { email: '1001@example.com', phone: '5552231001' }),
        ]) {
          expect(res.status).toBe(400)
          expect(res.body.error).toEqual(INVALID)
        }
      }
      expect(await stored()).toEqual(before)
    })

    it('refuses a challenge signed by another database’s key', async () => {
      const other = await createTestContext(dialect, { proofOfWork: true, proofOfWorkTuning: TUNING })
      try {
        const res = await intake(await solved(other.app), '8085551004')
        expect(res.status).toBe(400)
        expect(res.body.error).toEqual(INVALID)
      } finally {
        await other.close()
      }
    })

    it('refuses a replayed proof of work with 409, on this server process and on another, and stores nothing more', async () => {
      const proof = await solved(ctx.app)
      await claim(proof, '(555) 223-1005').expect(201)
      const before = await stored()
      const replays = [
        await claim(proof, '(555) 223-1006'),
        await claim(proof, '(555) 223-1007', secondApp()),
        await intake(proof, '8085551006'),
        await lookup(proof, { email: '1005@example.com', phone: '5552231005' }),
      ]
      for (const res of replays) {
        expect(res.status).toBe(409)
        expect(res.body.error).toEqual(USED)
      }
      expect(await stored()).toEqual(before)
    })

    it('accepts on another server process a challenge this one issued: the key is the database’s', async () => {
      await claim(await solved(ctx.app), '(555) 223-1008', secondApp()).expect(201)
    })

    it('refuses an expired proof of work with 400, and stores nothing', async () => {
      const proof = await solved(ctx.app)
      const before = await stored()
      clock += PROOF_OF_WORK_LIFETIME_MS + 1000
      try {
        for (const res of [
          await claim(proof, '(555) 223-1009'),
          await intake(proof, '8085551009'),
          await lookup(proof, { email: '1001@example.com', phone: '5552231001' }),
        ]) {
          expect(res.status).toBe(400)
          expect(res.body.error).toEqual(EXPIRED)
        }
        expect(await stored()).toEqual(before)
      } finally {
        clock = Date.now()
      }
    })

    it('forgets the spent challenges once they have expired', async () => {
      expect(await ctx.db.selectFrom('proof_of_work_spent').select('challenge').execute()).not.toEqual([])
      clock += PROOF_OF_WORK_LIFETIME_MS + 1000
      try {
        await intake(await solved(ctx.app), '8085551010').expect(201)
        const left = await ctx.db.selectFrom('proof_of_work_spent').select('expires_at').execute()
        expect(left.map((row) => Number(row.expires_at) > clock)).toEqual([true])
      } finally {
        clock = Date.now()
      }
    })

    it('tells a Spanish page why, in Spanish', async () => {
      const res = await request(ctx.app).post('/api/intake?lang=es').send(makeIntakeData())
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(
        'La comprobación de seguridad automática de este formulario no llegó con él. Vuelva a cargar la página e inténtelo de nuevo.',
      )
    })

    it('lets the download through without one: it follows a link opened from the e-mail', async () => {
      const res = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key: 'A'.repeat(43), intakeId: 999_999, format: 'html' })
      // refused for its unknown key, not for a missing proof of work
      expect(res.status).toBe(410)
      expect(res.body.error.code).toBe('LINK_EXPIRED')
    })
  })

  describe(`${dialect}: PROOF_OF_WORK=off`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect, { proofOfWork: false })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('issues no challenge, and takes the forms without one', async () => {
      const res = await request(ctx.app).get('/api/proof-of-work')
      expect(res.status).toBe(204)
      await request(ctx.app).post('/api/intake').send(makeIntakeData()).expect(201)
    })
  })
}
