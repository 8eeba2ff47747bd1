import { fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import { mailDelivery, outboxDir } from '../server/platform/mail-delivery.ts'
import { createDb } from '../server/db/create-db.ts'
import type { Database } from '../server/db/database.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../server/forms/load-intake-config.ts'
import { loadLanguages } from '../server/forms/languages.ts'
import { createClaimantJourney } from '../server/journey/claimant-journey.ts'
import { loadJourneyConfig } from '../server/journey/journey-config.ts'
import { SEND_REMINDER, sendReminderJob } from '../server/journey/send-reminder.job.ts'
import { createJobRunner } from '../server/jobs/job-runner.ts'
import { createLogger } from '../server/logger.ts'
import { startPostgres } from './processes.ts'
import { count, formatTable, type ResultRow } from './report.ts'
import { DAY_MS } from '../src/durations.ts'

// npm run bench:reminders -- [--postgres] [--claimants N] [--rate R] [--processes P]: N claimants (100,000
// by default), each due their first reminder in their daytime, in a fresh SQLite DATA_DIR (or a throw-away
// PostgreSQL with --postgres, the e-mails still in DATA_DIR/outbox); P processes (2) share the
// reminders' loop over it as server processes do, each e-mail written to DATA_DIR/outbox, at most R a
// minute (REMINDERS_PER_MINUTE; 20,000 by default, so the run takes five minutes). Reports the time
// and the rate, and checks that every claimant got exactly one e-mail and that no minute passed R.
const { values } = parseArgs({
  options: {
    claimants: { type: 'string', default: '100000' },
    rate: { type: 'string', default: '20000' },
    processes: { type: 'string', default: '2' },
    postgres: { type: 'boolean', default: false },
    worker: { type: 'string' },
    'database-url': { type: 'string' },
  },
})
const FORMS_DIR = path.resolve('forms')

if (values.worker) {
  await sendAsWorker(values.worker, Number(values.rate), values['database-url'])
} else {
  await runBench()
}

/** One "server process": the reminders' job over the shared database until nothing is due. */
async function sendAsWorker(
  dataDir: string,
  perMinute: number,
  databaseUrl: string | undefined,
): Promise<void> {
  const { db } = createDb({ databaseUrl, dataDir })
  const forms = loadFormConfigs(FORMS_DIR)
  const config = loadJourneyConfig(FORMS_DIR)
  const languages = loadLanguages({ formsDir: FORMS_DIR, forms, intake: loadIntakeConfig(FORMS_DIR) })
  const evidenceKey = Buffer.alloc(32, 7)
  const logger = createLogger('warn')
  const jobs = createJobRunner({
    db,
    logger,
    handlers: [
      sendReminderJob({
        db,
        journey: createClaimantJourney({ db, config, languages, evidenceKey }),
        config,
        languages,
        deliver: mailDelivery({ smtpUrl: undefined, dataDir }),
        from: 'Claims <claims@example.com>',
        perMinute,
        logger,
      }),
    ],
  })
  for (;;) {
    await jobs.runDue(SEND_REMINDER)
    const left = await db
      .selectFrom('claimant_journeys')
      .select((eb) => eb.fn.countAll<number>().as('due'))
      .where('due_at', '<=', Date.now())
      .executeTakeFirstOrThrow()
    if (Number(left.due) === 0) break
    // the minute's reminders are spent (or the other process holds the rest): look again shortly
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await jobs.stop()
  await db.destroy()
}

async function runBench(): Promise<void> {
  const claimants = Number(values.claimants)
  const perMinute = Number(values.rate)
  const processes = Number(values.processes)
  if (!Number.isInteger(claimants) || claimants < 100)
    throw new Error('--claimants takes a whole number, 100 or more')
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-reminders-bench-'))
  const dataDir = path.join(workDir, 'data')
  const postgres = values.postgres ? await startPostgres() : undefined
  const databaseUrl = postgres?.url
  try {
    const { db } = createDb({ databaseUrl, dataDir })
    await migrateToLatest(db as Kysely<unknown>)
    console.log(`queueing ${count(claimants)} claimants due their first reminder…`)
    await queueDue(db, claimants)
    await db.destroy()

    const started = Date.now()
    await Promise.all(
      Array.from({ length: processes }, () => {
        const child = fork(
          path.resolve('bench/reminders-bench.ts'),
          [
            '--worker',
            dataDir,
            '--rate',
            String(perMinute),
            ...(databaseUrl ? ['--database-url', databaseUrl] : []),
          ],
          { execArgv: ['--import', 'tsx'], stdio: 'inherit' },
        )
        return new Promise<void>((resolve, reject) =>
          child.once('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`a sender exited ${code}`)),
          ),
        )
      }),
    )
    const seconds = (Date.now() - started) / 1000

    const files = fs.readdirSync(outboxDir(dataDir)).filter((name) => name.endsWith('.eml'))
    const recipients = new Map<string, number>()
    for (const name of files) {
      const head = fs.readFileSync(path.join(outboxDir(dataDir), name), 'utf8').slice(0, 2000)
      const to = /^To: (.+)$/m.exec(head)?.[1] ?? '?'
      recipients.set(to, (recipients.get(to) ?? 0) + 1)
    }
    const twice = [...recipients.values()].filter((sent) => sent > 1).length
    const check = createDb({ databaseUrl, dataDir }).db
    const busiest = await check
      .selectFrom('reminder_windows')
      .select((eb) => eb.fn.max('sent').as('sent'))
      .executeTakeFirstOrThrow()
    await check.destroy()
    const most = Number(busiest.sent ?? 0)
    const rows: ResultRow[] = [
      {
        benchmark: `claimants due, server processes (${postgres ? 'PostgreSQL' : 'SQLite'})`,
        figure: `${count(claimants)}, ${processes}`,
        budget: '',
      },
      { benchmark: 'reminders written to the outbox', figure: count(files.length), budget: count(claimants) },
      {
        benchmark: 'claimants e-mailed twice / not at all',
        figure: `${count(twice)} / ${count(claimants - recipients.size)}`,
        budget: '0 / 0',
        isWithinBudget: twice === 0 && recipients.size === claimants,
      },
      {
        benchmark: 'most reminders in one minute',
        figure: count(most),
        budget: `≤ ${count(perMinute)} (the rate)`,
        isWithinBudget: most <= perMinute,
      },
      { benchmark: 'time to send them all', figure: `${seconds.toFixed(1)} s`, budget: '' },
      { benchmark: 'reminders a second', figure: count(files.length / seconds), budget: '' },
    ]
    console.log(formatTable(rows))
  } finally {
    await postgres?.stop()
    fs.rmSync(workDir, { recursive: true, force: true })
  }
}

/** Intakes whose journeys are due their first reminder now, in a zone where it is noon. */
async function queueDue(db: Kysely<Database>, claimants: number): Promise<void> {
  const offset = 12 - new Date().getUTCHours()
  const hours = offset > 12 ? offset - 24 : offset < -12 ? offset + 24 : offset
  const noonZone = hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`
  const createdAt = Date.now() - 2 * DAY_MS - 60_000
  const BATCH = 500
  for (let first = 1; first <= claimants; first += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, claimants - first + 1) }, (_, i) => first + i)
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('form_submissions')
        .values(
          ids.map((id) => ({
            id,
            created_at: new Date(createdAt).toISOString(),
            cash_advance_apps: JSON.stringify(['earnin', 'chime']),
            fees_incurred: '[]',
            is_over_18: 1,
            is_active_military: 0,
            has_bankruptcy: 0,
            first_name: 'Bench',
            last_name: `Claimant${id}`,
            email: `claimant${id}@bench.test`,
            phone: `(555) ${String(100 + Math.floor(id / 10000)).padStart(3, '0')}-${String(id % 10000).padStart(4, '0')}`,
            address: '1 Bench St',
            address_line_2: '',
            city: 'Honolulu',
            state: 'HI',
            zip_code: '96815',
            signature: '',
            consent_agreed: 1,
            communications_consent: 1,
            consent_version: 'bench',
            consent_text: '',
            communications_consent_text: '',
          })) as never,
        )
        .execute()
      await trx
        .insertInto('claimant_journeys')
        .values(
          ids.map((id) => ({
            intake_id: id,
            created_at: createdAt,
            mails_sent: 1,
            due_at: 0,
            last_mail_at: createdAt,
            time_zone: noonZone,
            link_origin: 'http://127.0.0.1:3000',
          })),
        )
        .execute()
    })
  }
}
