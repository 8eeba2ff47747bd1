import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkMoveStarted } from '../../../src/api/bulk-moves.ts'
import type { RespondentListImported } from '../../../src/api/respondent-list.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { fraudStanding, type FraudReason } from '../../../src/fraud-config.ts'
import { deviceId, fileClaimant, person, scoreAll } from '../support/fraud-claims.ts'
import { moveClaimTo } from '../support/claims.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'company-list.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const APP = 'earnin'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the company's list`, () => {
    let ctx: TestContext
    let admin: string
    const people = ['Alana', 'Bodhi', 'Ciela', 'Dane', 'Ezra'].map((first) => person(first, 'Listed'))
    // one claim each: named by e-mail, by phone, by claim ID, by row ID; the last on no list
    const ids: number[] = []
    const rowId = 'B900-00001'

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      for (const [n, who] of people.entries()) {
        const id = await fileClaimant(ctx, {
          who,
          app: APP,
          device: deviceId(40 + n),
          from: `203.0.${10 + n}.9`,
        })
        await moveClaimTo(ctx, { id, app: APP, status: n === 3 ? 'approved' : 'in_review' })
        ids.push(id)
      }
      await scoreAll(ctx)
      // the fourth in a filing batch built elsewhere, under the row ID the provider's spreadsheet named it by
      const account = await ctx.db
        .selectFrom('staff_accounts')
        .select('id')
        .where('email', '=', ADMIN_EMAIL)
        .executeTakeFirstOrThrow()
      const { id: batchId } = await ctx.db
        .insertInto('filing_batches')
        .values({
          id: 900,
          app: APP,
          kind: 'filing',
          status: 'ready',
          problem: null,
          provider: 'aaa',
          claim_count: 1,
          created_at: Date.now(),
          account_id: Number(account.id),
          actor: ADMIN_EMAIL,
          client_address: '127.0.0.1',
          link_origin: 'http://claims.test',
          lease_owner: null,
          lease_until: null,
          file_key: null,
          bytes: null,
          sha256: null,
          batch_hash: null,
          sent_on: null,
          sent_method: null,
          sent_tracking: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await ctx.db
        .insertInto('filing_batch_claims')
        .values({ batch_id: Number(batchId), claim_id: ids[3]!, row_id: rowId, case_number: null })
        .execute()
    }, 120_000)
    afterAll(async () => {
      await ctx?.close()
    })

    const url = (list: string) => `/api/staff/apps/${APP}/batches/respondent-list?list=${list}`
    const send = (list: string, csv: string, cookie = admin) =>
      request(ctx.app)
        .post(url(list))
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .set('Content-Type', 'text/csv')
        .send(csv)
    const flags = () => ctx.db.selectFrom('respondent_flags').selectAll().orderBy('claim_id').execute()
    const countAudit = async (action: string) =>
      Number(
        (
          await ctx.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('action', '=', action)
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('refuses a file with faulty lines, naming each by its number, and keeps nothing', async () => {
      const header = await send('not_customer', 'Name,Notes\r\nAlana,x\r\n').expect(400)
      expect((header.body as ErrorBody).error.details!.problems).toEqual([
        'line 1: the header must name an e-mail column ("E-mail"), a phone column ("Phone") or a claim reference column ("Claim ID" or "Row ID")',
      ])
      const bad = await send(
        'not_customer',
        [
          'E-mail,Phone,Claim ID',
          `${people[0]!.email},,`,
          'not-an-email,,',
          ',555-01,',
          ',,C-17',
          ',,',
          'Name only,,',
        ].join('\r\n'),
      ).expect(400)
      const { error } = bad.body as ErrorBody
      expect(error.message).toMatch(/^the company list file was not imported:\n/)
      expect(error.details!.problems).toEqual([
        'line 3: "not-an-email" is not an e-mail address',
        'line 4: "555-01" is not a US phone number of 10 digits',
        'line 5: "C-17" is neither a claim ID (digits) nor a row ID (B12-00001)',
        'line 7: "Name only" is not an e-mail address',
      ])
      expect(await flags()).toEqual([])
      expect(await countAudit('respondent_list_imported')).toBe(0)
      await send('everyone', 'E-mail\r\na@b.test\r\n').expect(400)
    })

    it('flags the claims named by e-mail, phone, claim ID and row ID, lists the lines that match none, and scores them again', async () => {
      const [alana, bodhi] = people as [(typeof people)[0], (typeof people)[0]]
      const csv = [
        'Claim ID,E-mail,Phone',
        `,${alana.email.toUpperCase()},`,
        // the company writes a phone its own way
        `,,+1 ${bodhi.phoneNumber.replace(/\D/g, '').replace(/(\d{3})(\d{3})(\d{4})/, '$1.$2.$3')}`,
        `${ids[2]},,`,
        `${rowId.toLowerCase()},,`,
        ',someone.else@mail.test,',
        '999999,,',
      ].join('\r\n')
      const res = await send('not_customer', `\ufeff${csv}\r\n`).expect(200)
      expect(res.body).toEqual({
        list: 'not_customer',
        lines: 6,
        matched: 4,
        claimIds: ids.slice(0, 4),
        unmatched: [
          { line: 6, value: 'someone.else@mail.test' },
          { line: 7, value: '999999' },
        ],
        unmatchedCount: 2,
      } satisfies RespondentListImported)
      expect(
        (await flags()).map(({ claim_id, list, imported_by }) => [Number(claim_id), list, imported_by]),
      ).toEqual(ids.slice(0, 4).map((id) => [id, 'not_customer', ADMIN_EMAIL]))
      expect(await countAudit('respondent_list_imported')).toBe(1)

      await scoreAll(ctx)
      for (const id of ids) {
        const row = await ctx.db
          .selectFrom('claims')
          .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
          .select(['claims.fraud_score', 'fraud_scores.reasons'])
          .where('claims.id', '=', id)
          .executeTakeFirstOrThrow()
        const listed = (JSON.parse(row.reasons ?? '[]') as FraudReason[]).find(
          (reason) => reason.code === 'respondent_listed',
        )
        if (id === ids[4]) {
          expect(listed).toBeUndefined()
          continue
        }
        expect(listed, `claim ${id}`).toMatchObject({ points: 500 })
        expect(listed!.text).toMatch(/^The company's list names this claimant: /)
        expect(fraudStanding(ctx.fraud(APP), Number(row.fraud_score))).toBe('hold')
      }
    })

    it('asks the claims on the list to prove their account in one action: deficient with "We need to verify your account"', async () => {
      const proof = `/api/staff/apps/${APP}/batches/respondent-list/account-proof`
      const refused = await request(ctx.app)
        .post(proof)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ claimIds: [ids[0], ids[4]] })
        .expect(400)
      expect((refused.body as ErrorBody).error.message).toBe(
        `claim ${ids[4]} is not on the company's list of this app`,
      )
      const started = await request(ctx.app)
        .post(proof)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ claimIds: ids.slice(0, 4) })
        .expect(202)
      expect((started.body as BulkMoveStarted).total).toBe(4)
      // the action wakes the job's own loop: this waits for it
      await ctx.bulkMoves.runDue()
      await ctx.bulkMoves.settled()
      for (const id of ids) {
        const claim = await ctx.db
          .selectFrom('claims')
          .select(['review_status', 'review_reason'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        expect([id, claim.review_status, claim.review_reason]).toEqual(
          id === ids[4] ? [id, 'in_review', null] : [id, 'deficient', 'account_unverified'],
        )
      }
      const bulk = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'bulk_move')
        .executeTakeFirstOrThrow()
      expect(bulk.detail).toMatch(/: 4 claims → deficient \(account_unverified\)$/)
    })

    it("leaves the company's list to admins", async () => {
      const staff = await signInNewAccount(ctx, SITE, {
        email: 'decider@firm.test',
        password: 'decider password 1',
        name: 'Dee Decider',
        role: 'staff',
        apps: [{ app: APP, canExport: true, canDecide: true }],
      })
      const res = await send('duplicate', `E-mail\r\n${people[4]!.email}\r\n`, staff).expect(403)
      expect((res.body as ErrorBody).error.message).toBe(
        "importing the company's list and acting on it is an admin's",
      )
      expect(await countAudit('respondent_list_imported')).toBe(1)
    })
  })
}
