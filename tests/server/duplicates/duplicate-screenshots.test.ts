import request from 'supertest'
import { sql, type RawBuilder } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import {
  createDuplicateScreenshots,
  type DuplicateScreenshots,
} from '../../../server/duplicates/duplicate-screenshots.ts'
import { screenshotHashThread } from '../../../server/duplicates/screenshot-hasher.ts'
import { createLogger } from '../../../server/logger.ts'
import { bankScreenshot, cropImage, encodeJpegImage, encodePngImage } from '../support/bank-screenshots.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { fileClaim } from '../support/claims.ts'

const SITE = 'duplicates.test'
const ORIGINAL = bankScreenshot({ seed: 1, width: 540, height: 1170 })
const ORIGINAL_PNG = encodePngImage(ORIGINAL)

let claimant = 0

for (const dialect of DIALECTS) {
  describe(`${dialect}: duplicate screenshots`, () => {
    let ctx: TestContext
    let sweeper: DuplicateScreenshots
    let cookie = ''

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      sweeper = createDuplicateScreenshots({
        db: ctx.db,
        storage: ctx.storage,
        hasher: screenshotHashThread(),
        logger: createLogger('silent'),
      })
      cookie = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await sweeper?.stop()
      await ctx?.close()
    })

    /** A claim through the form, by a new claimant unless a phone and e-mail are given; its id once checked. */
    async function fileAndSweep({
      screenshot,
      app = 'brigit',
      fileName = 'statement.png',
      phoneNumber,
      email,
    }: {
      screenshot: Buffer
      app?: string
      fileName?: string
      phoneNumber?: string
      email?: string
    }): Promise<number> {
      claimant += 1
      const fields = {
        phoneNumber: phoneNumber ?? `(415) 555-${String(1000 + claimant)}`,
        email: email ?? `claimant${claimant}@example.com`,
      }
      const created = await fileClaim(ctx, {
        app,
        fields,
        screenshot: { content: screenshot, name: fileName },
      })
      sweeper.wake()
      await sweeper.settled()
      return created.id
    }

    async function matchesOf(id: number) {
      return ctx.db
        .selectFrom('screenshot_matches')
        .select(['other_claim_id', 'kind'])
        .where('claim_id', '=', id)
        .orderBy('other_claim_id')
        .execute()
        .then((rows) => rows.map((row) => ({ other: Number(row.other_claim_id), kind: row.kind })))
    }

    describe('the check', () => {
      beforeEach(async () => {
        await clearClaims(ctx)
      })

      it('flags two claimants with the same screenshot, and with a re-compressed copy of it, both', async () => {
        const first = await fileAndSweep({ screenshot: ORIGINAL_PNG })
        const same = await fileAndSweep({ screenshot: ORIGINAL_PNG })
        const recompressed = await fileAndSweep({
          screenshot: encodeJpegImage(ORIGINAL, 60),
          fileName: 'copy.jpg',
        })

        expect(await matchesOf(first)).toEqual([
          { other: same, kind: 'exact' },
          { other: recompressed, kind: 'near' },
        ])
        expect(await matchesOf(same)).toEqual([
          { other: first, kind: 'exact' },
          { other: recompressed, kind: 'near' },
        ])
        expect(await matchesOf(recompressed)).toEqual([
          { other: first, kind: 'near' },
          { other: same, kind: 'near' },
        ])
      })

      it('flags a copy cropped by a few per cent off an edge', async () => {
        const first = await fileAndSweep({ screenshot: ORIGINAL_PNG })
        const cropped = await fileAndSweep({
          screenshot: encodePngImage(cropImage(ORIGINAL, { bottom: 0.04 })),
        })
        const croppedSide = await fileAndSweep({
          screenshot: encodeJpegImage(cropImage(ORIGINAL, { right: 0.03 }), 80),
          fileName: 'side.jpg',
        })

        expect((await matchesOf(cropped)).map(({ other }) => other)).toContain(first)
        expect((await matchesOf(croppedSide)).map(({ other }) => other)).toContain(first)
      })

      it('does not flag another screenshot of the same bank app, with other figures and rows', async () => {
        await fileAndSweep({ screenshot: ORIGINAL_PNG })
        const others = []
        for (const seed of [2, 3, 4, 5, 6]) {
          others.push(
            await fileAndSweep({
              screenshot: encodePngImage(bankScreenshot({ seed, width: 540, height: 1170 })),
            }),
          )
        }
        for (const other of others) expect(await matchesOf(other)).toEqual([])
      })

      it('does not flag the same claimant sending one screenshot to two apps', async () => {
        const person = { phoneNumber: '(415) 555-0100', email: 'one.person@example.com' }
        const brigit = await fileAndSweep({ screenshot: ORIGINAL_PNG, ...person })
        const cleo = await fileAndSweep({ screenshot: ORIGINAL_PNG, app: 'cleo', ...person })

        expect(await matchesOf(brigit)).toEqual([])
        expect(await matchesOf(cleo)).toEqual([])
      })

      it('records a claim whose file is gone as unreadable, once', async () => {
        const id = await fileAndSweep({ screenshot: ORIGINAL_PNG })
        const { screenshot_key } = await ctx.db
          .selectFrom('claims')
          .select('screenshot_key')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        await ctx.db.deleteFrom('screenshot_hashes').where('claim_id', '=', id).execute()
        await ctx.db.insertInto('screenshot_checks').values({ claim_id: id, due_at: 0 }).execute()
        await ctx.storage.remove(screenshot_key)
        sweeper.wake()
        await sweeper.settled()

        const hashes = await ctx.db
          .selectFrom('screenshot_hashes')
          .select('status')
          .where('claim_id', '=', id)
          .execute()
        expect(hashes).toEqual([{ status: 'unreadable' }])
        expect(await ctx.db.selectFrom('screenshot_checks').selectAll().execute()).toEqual([])
      })
    })

    function staffGet(url: string) {
      return request(ctx.app).get(url).set({ Cookie: cookie, Host: SITE })
    }

    describe('on the dashboard', () => {
      let first: number
      let copy: number
      let other: number

      // the tests read these three claims and leave them as they found them
      beforeAll(async () => {
        await clearClaims(ctx)
        first = await fileAndSweep({ screenshot: ORIGINAL_PNG, email: 'first.flagged@example.com' })
        other = await fileAndSweep({
          screenshot: encodePngImage(bankScreenshot({ seed: 9, width: 540, height: 1170 })),
          email: 'not.flagged@example.com',
        })
        copy = await fileAndSweep({
          screenshot: encodeJpegImage(ORIGINAL, 60),
          fileName: 'copy.jpg',
          app: 'cleo',
          email: 'copy.flagged@example.com',
        })
      })

      it('lists only the flagged claims with ?flagged=1, each with the claims it matches', async () => {
        const all = await staffGet('/api/staff/apps/brigit/submissions').expect(200)
        expect(all.body.data.map((row: { id: number }) => row.id)).toEqual([other, first])
        expect(all.body.data.map((row: { duplicateOf: number[] }) => row.duplicateOf)).toEqual([[], [copy]])

        const flagged = await staffGet('/api/staff/apps/brigit/submissions?flagged=1').expect(200)
        expect(flagged.body).toMatchObject({ count: 1, total: 2, data: [{ id: first, duplicateOf: [copy] }] })
      })

      it('combines the filter with a search', async () => {
        const found = await staffGet('/api/staff/apps/brigit/submissions?flagged=1&q=first.flagged').expect(
          200,
        )
        expect(found.body).toMatchObject({ count: 1, data: [{ id: first }] })
        const none = await staffGet('/api/staff/apps/brigit/submissions?flagged=1&q=not.flagged').expect(200)
        expect(none.body).toMatchObject({ count: 0, data: [] })
      })

      it('combines the filter with the Confirmed filter, in the list and the CSV', async () => {
        const confirm = (confirmedAt: RawBuilder<string>) =>
          ctx.db.updateTable('claims').set({ confirmed_at: confirmedAt }).where('id', '=', first).execute()
        await confirm(sql<string>`${new Date().toISOString()}`)
        onTestFinished(async () => {
          await confirm(sql<string>`NULL`)
        })

        const confirmed = await staffGet('/api/staff/apps/brigit/submissions?flagged=1&confirmed=yes').expect(
          200,
        )
        expect(confirmed.body).toMatchObject({
          count: 1,
          total: 2,
          data: [{ id: first, duplicateOf: [copy] }],
        })
        const unconfirmed = await staffGet(
          '/api/staff/apps/brigit/submissions?flagged=1&confirmed=no',
        ).expect(200)
        expect(unconfirmed.body).toMatchObject({ count: 0, total: 2, data: [] })

        const ids = async (url: string) =>
          (await staffGet(url).expect(200)).text
            .slice(1)
            .trim()
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(',')[0])
        expect(await ids('/api/staff/apps/brigit/export.csv?flagged=1&confirmed=yes')).toEqual([
          String(first),
        ])
        expect(await ids('/api/staff/apps/brigit/export.csv?flagged=1&confirmed=no')).toEqual([])
        expect(await ids('/api/staff/apps/brigit/export.csv?confirmed=no')).toEqual([String(other)])
      })

      it('refuses a filter value that is neither 1 nor 0', async () => {
        const res = await staffGet('/api/staff/apps/brigit/submissions?flagged=yes').expect(400)
        expect(res.body).toEqual({
          error: { code: 'BAD_REQUEST', message: '"flagged" must be 1 (only those) or 0 (all)' },
        })
      })

      it("gives a flagged claim's matches, in other apps too, and opens each by its id", async () => {
        const links = await staffGet(`/api/staff/claims/${first}/duplicates`).expect(200)
        expect(links.body).toEqual([
          { id: copy, app: 'cleo', appName: 'Cleo', kind: 'near', distance: expect.any(Number) },
        ])

        const opened = await staffGet(`/api/staff/claims/${copy}`).expect(200)
        expect(opened.body).toMatchObject({
          id: copy,
          app: 'cleo',
          email: 'copy.flagged@example.com',
          duplicateOf: [first],
        })
        await staffGet('/api/staff/claims/99999999').expect(404)
      })

      it("says Yes in the CSV's Flagged column with the matching claims in the next, and exports only flagged claims with ?flagged=1", async () => {
        const csv = await staffGet('/api/staff/apps/brigit/export.csv').expect(200)
        const [header, ...records] = csv.text.slice(1).trim().split('\r\n')
        expect(header!.split(',').slice(12, 14)).toEqual(['Flagged', 'Flagged Claim IDs'])
        expect(records.map((line) => [line.split(',')[0], ...line.split(',').slice(12, 14)])).toEqual([
          [String(other), 'No', ''],
          [String(first), 'Yes', String(copy)],
        ])

        const flagged = await staffGet('/api/staff/apps/brigit/export.csv?flagged=1').expect(200)
        expect(
          flagged.text
            .slice(1)
            .trim()
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(',')[0]),
        ).toEqual([String(first)])
      })
    })
  })
}
