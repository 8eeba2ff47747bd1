import fs from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sendAgreementCopyJob } from '../../../server/agreements/send-agreement-copy.job.ts'
import { checkScreenshotJob } from '../../../server/duplicates/check-screenshot.job.ts'
import { anchorLedgerJob } from '../../../server/evidence/anchor-ledger.job.ts'
import { buildBatchJob } from '../../../server/filing/build-batch.job.ts'
import type { JobHandler, JobOutcome, RowJobHandler } from '../../../server/jobs/job-handler.ts'
import { createJobRunner, type JobRunner } from '../../../server/jobs/job-runner.ts'
import { JOB_TABLES, takeJob, type JobTable } from '../../../server/jobs/lease.ts'
import { LEASE_MS } from '../../../server/jobs/retry-policy.ts'
import { createLogger } from '../../../server/logger.ts'
import { anchorFile } from '../../../server/evidence/ledger-anchor.ts'
import { createStaffMailer } from '../../../server/staff/staff-mailer.ts'
import { bulkMoveJob } from '../../../server/review/bulk-move.job.ts'
import { endCurePeriodJob } from '../../../server/review/end-cure-period.job.ts'
import { sendCureNoticeJob } from '../../../server/review/send-cure-notice.job.ts'
import { deliverWebhookJob } from '../../../server/webhooks/deliver-webhook.job.ts'
import { sendReminderJob } from '../../../server/journey/send-reminder.job.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  insertClaim,
  type TestContext,
} from '../support/helpers.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const logger = createLogger('silent')
const unused = {} as never

/** Each kind's delays after its 1st and 2nd failed attempt, as each job had them on its own. */
const RETRY_DELAYS: Record<string, [number, number]> = {
  'send-agreement-copy': [MINUTE, 5 * MINUTE],
  'check-screenshot': [MINUTE, 30 * MINUTE],
  'deliver-webhook': [MINUTE, 5 * MINUTE],
  'send-cure-notice': [0, 0],
  'end-cure-period': [0, 0],
  'bulk-move': [0, 0],
  'build-batch': [MINUTE, 5 * MINUTE],
  'send-reminder': [MINUTE, 5 * MINUTE],
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the job runner under two server processes`, () => {
    let ctx: TestContext
    let seq = 0
    const runners: JobRunner[] = []

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      // the app's own runner stays out of the way: each test runs two of its own
      await ctx.agreementCopies.stop()
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()))
      await clearClaims(ctx)
      for (const table of Object.keys(JOB_TABLES) as JobTable[]) await ctx.db.deleteFrom(table).execute()
      await ctx.db.deleteFrom('webhook_endpoints').execute()
    })

    /** Each job kind with its real table, filter and policy; its work is the test's. */
    function realHandlers(): RowJobHandler<JobTable>[] {
      const reviews = unused
      const forms = new Map()
      const handlers = [
        sendAgreementCopyJob({ db: ctx.db, mailer: unused, forms, agreementPdfs: unused, logger }),
        checkScreenshotJob({ db: ctx.db, storage: unused, hasher: unused, logger }),
        deliverWebhookJob({ db: ctx.db, evidenceKey: ctx.evidenceKey, allowPrivate: false, logger }),
        sendCureNoticeJob({
          db: ctx.db,
          reviews,
          forms,
          evidenceKey: ctx.evidenceKey,
          deliver: unused,
          from: '',
          translators: unused,
          logger,
        }),
        endCurePeriodJob({ db: ctx.db, reviews, evidenceKey: ctx.evidenceKey, logger }),
        bulkMoveJob({ db: ctx.db, reviews, evidenceKey: ctx.evidenceKey, logger }),
        buildBatchJob({
          db: ctx.db,
          forms,
          filings: unused,
          reviews,
          fraud: ctx.fraud,
          evidenceKey: ctx.evidenceKey,
          pdfs: unused,
          batchDir: ctx.dataDir,
          store: unused,
          logger,
        }),
        sendReminderJob({
          db: ctx.db,
          journey: unused,
          config: unused,
          languages: unused,
          deliver: unused,
          from: '',
          perMinute: 10,
          logger,
        }),
      ]
      return handlers as unknown as RowJobHandler<JobTable>[]
    }

    /** Two runners ("processes") of one kind on one database, each doing `work` on the rows it takes. */
    function twoRunners(
      handler: RowJobHandler<JobTable>,
      work: (owner: string, key: number) => Promise<JobOutcome>,
    ): [JobRunner, JobRunner] {
      const make = (owner: string) => {
        const runner = createJobRunner({
          db: ctx.db,
          owner,
          logger,
          handlers: [
            {
              kind: handler.kind,
              table: handler.table,
              where: handler.where,
              pollMs: handler.pollMs,
              batch: handler.batch,
              inFlight: handler.inFlight,
              run: ({ row }: { row: unknown }) =>
                work(owner, Number((row as Record<string, unknown>)[JOB_TABLES[handler.table].key])),
            } as JobHandler,
          ],
        })
        runners.push(runner)
        return runner
      }
      return [make('process-a'), make('process-b')]
    }

    /** `count` rows of the kind's table, due now. */
    async function seed(handler: RowJobHandler<JobTable>, count: number): Promise<void> {
      const now = Date.now()
      for (let i = 0; i < count; i++) {
        seq += 1
        if (handler.table === 'agreement_copies' || handler.table === 'screenshot_checks') {
          const { id } = await insertClaim(ctx.db, {
            app: 'brigit',
            created_at: new Date().toISOString(),
            first_name: 'Job',
            last_name: 'Runner',
            email: `job${seq}@mail.test`,
            phone_number: `(646) 555-${String(seq).padStart(4, '0')}`,
            cash_advance_count: 2,
            membership_months: 4,
            screenshot_key: 'brigit-screenshots/missing.png',
            screenshot_type: 'image/png',
          })
          // the claim's trigger queued its screenshot check
          if (handler.table === 'agreement_copies') {
            await ctx.db
              .insertInto('agreement_copies')
              .values({ claim_id: id, due_at: now, link_origin: null })
              .execute()
          }
        } else if (handler.table === 'webhook_deliveries') {
          const endpoint = await ctx.db
            .insertInto('webhook_endpoints')
            .values({
              url: 'https://hooks.test/',
              events: '[]',
              include_details: 0,
              is_active: 1,
              secret_salt: 'salt',
              created_at: now,
              created_by: 'admin',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
          await ctx.db
            .insertInto('webhook_deliveries')
            .values({
              endpoint_id: Number(endpoint.id),
              event_id: `event-${seq}`,
              type: 'claim.created',
              data: '{}',
              created_at: now,
              give_up_at: now + 24 * HOUR,
            })
            .execute()
        } else if (handler.table === 'claim_cures') {
          const ended = handler.kind === 'end-cure-period'
          await ctx.db
            .insertInto('claim_cures')
            .values({
              id: seq,
              claim_id: seq,
              app: 'brigit',
              started_at: now - 20 * 24 * HOUR,
              expires_at: ended ? now - HOUR : now + 10 * 24 * HOUR,
              ended_at: null,
              link_origin: 'http://claims.test',
            })
            .execute()
        } else if (handler.table === 'bulk_moves') {
          await ctx.db
            .insertInto('bulk_moves')
            .values({
              app: 'brigit',
              to_status: 'in_review',
              reason: null,
              reason_text: null,
              note: null,
              account_id: 1,
              actor: 'admin',
              client_address: '127.0.0.1',
              link_origin: 'http://claims.test',
              created_at: now,
              status: 'queued',
              total: 0,
            })
            .execute()
        } else if (handler.table === 'claimant_journeys') {
          await ctx.db
            .insertInto('claimant_journeys')
            .values({
              intake_id: seq,
              created_at: now,
              mails_sent: 0,
              due_at: now,
              time_zone: 'America/Los_Angeles',
              link_origin: 'http://claims.test',
            })
            .execute()
        } else {
          await ctx.db
            .insertInto('filing_batches')
            .values({
              app: 'brigit',
              kind: 'notice',
              status: 'building',
              problem: null,
              provider: null,
              claim_count: 0,
              created_at: now,
              account_id: 1,
              actor: 'admin',
              client_address: '127.0.0.1',
              link_origin: 'http://claims.test',
              file_key: null,
              bytes: null,
              sha256: null,
              batch_hash: null,
              sent_on: null,
              sent_method: null,
              sent_tracking: null,
            })
            .execute()
        }
      }
    }

    /** What the kind's own work writes when it is done, beside the lease (a copy sent, a check recorded). */
    async function markDone(table: JobTable, key: number): Promise<void> {
      if (table === 'agreement_copies') {
        await ctx.db
          .updateTable('agreement_copies')
          .set({ sent_at: Date.now() })
          .where('claim_id', '=', key)
          .execute()
      }
      if (table === 'screenshot_checks')
        await ctx.db.deleteFrom('screenshot_checks').where('claim_id', '=', key).execute()
    }

    const leaseOf = async (table: JobTable, key: number) =>
      (await ctx.db
        .selectFrom(table)
        .select(['lease_owner', 'lease_until', 'attempts', 'due_at'])
        .where(JOB_TABLES[table].key, '=', key)
        .executeTakeFirstOrThrow()) as { lease_owner: string | null; attempts: number; due_at: number | null }

    const keysOf = async (table: JobTable) => {
      const rows = await ctx.db.selectFrom(table).selectAll().execute()
      return rows.map((row) => Number((row as Record<string, unknown>)[JOB_TABLES[table].key]))
    }

    it('registers every job kind once, with its retry delays in the table', () => {
      const kinds = realHandlers().map((handler) => handler.kind)
      expect(new Set(kinds).size).toBe(kinds.length)
      expect(kinds.sort()).toEqual(Object.keys(RETRY_DELAYS).sort())
    })

    for (const kind of Object.keys(RETRY_DELAYS)) {
      const handlerOf = () => realHandlers().find((handler) => handler.kind === kind)!

      it(`${kind}: does each job once when two processes take from one table`, async () => {
        const handler = handlerOf()
        await seed(handler, 6)
        const done: number[] = []
        const [a, b] = twoRunners(handler, async (_owner, key) => {
          done.push(key)
          await sleep(5)
          await markDone(handler.table, key)
          return 'done'
        })
        await Promise.all([a.runDue(kind), b.runDue(kind), a.runDue(kind), b.runDue(kind)])
        await Promise.all([a.runDue(kind), b.runDue(kind)])
        expect(new Set(done).size).toBe(done.length)
        expect(done).toHaveLength(6)
      })

      it(`${kind}: hands a job whose process died to the other once its lease ran out`, async () => {
        const handler = handlerOf()
        await seed(handler, 1)
        const [key] = await keysOf(handler.table)
        const now = Date.now()
        // process a took it, then died holding it
        expect(
          await takeJob({
            db: ctx.db,
            table: handler.table,
            key: key!,
            owner: 'process-a',
            now,
            where: handler.where,
          }),
        ).toBeDefined()
        const done: string[] = []
        const [, b] = twoRunners(handler, async (owner, taken) => {
          done.push(owner)
          await markDone(handler.table, taken)
          return 'done'
        })
        await b.runDue(kind, now + LEASE_MS - 1)
        expect(done).toEqual([])
        await b.runDue(kind, now + LEASE_MS + 1)
        expect(done).toEqual(['process-b'])
        expect(await leaseOf(handler.table, key!).catch(() => undefined)).not.toMatchObject({
          lease_owner: 'process-a',
        })
      })

      it(`${kind}: retries a failed job on its schedule, in either process`, async () => {
        const handler = handlerOf()
        await seed(handler, 1)
        const [key] = await keysOf(handler.table)
        const [first, second] = RETRY_DELAYS[kind]!
        const tried: string[] = []
        const [a, b] = twoRunners(handler, async (owner) => {
          tried.push(owner)
          return 'retry'
        })
        const start = Date.now()
        await a.runDue(kind, start)
        expect(await leaseOf(handler.table, key!)).toMatchObject({ lease_owner: null, attempts: 1 })
        expect(Number((await leaseOf(handler.table, key!)).due_at)).toBe(start + first)
        if (first > 0) {
          await b.runDue(kind, start + first - 1)
          expect(tried).toEqual(['process-a'])
        }
        await b.runDue(kind, start + first)
        expect(tried).toEqual(['process-a', 'process-b'])
        expect(await leaseOf(handler.table, key!)).toMatchObject({ lease_owner: null, attempts: 2 })
        expect(Number((await leaseOf(handler.table, key!)).due_at)).toBe(start + first + second)
      })
    }

    it('anchor-ledger: claims no rows, and each process anchors the head on its own', async () => {
      const handler = anchorLedgerJob({
        db: ctx.db,
        evidenceKey: ctx.evidenceKey,
        dataDir: ctx.dataDir,
        staffMailer: createStaffMailer({
          smtpUrl: undefined,
          dataDir: ctx.dataDir,
          from: 'claims@example.com',
          logger,
        }),
        logger,
      })
      expect('table' in handler).toBe(false)
      const a = createJobRunner({ db: ctx.db, owner: 'process-a', logger, handlers: [handler] })
      const b = createJobRunner({
        db: ctx.db,
        owner: 'process-b',
        logger,
        handlers: [{ ...handler, stop: undefined }],
      })
      runners.push(a, b)
      await Promise.all([a.runDue('anchor-ledger'), b.runDue('anchor-ledger')])
      expect(fs.existsSync(anchorFile(ctx.dataDir))).toBe(true)
    })
  })
}
