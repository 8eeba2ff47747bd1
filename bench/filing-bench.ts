import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Batch } from '../src/api/filing-batches.ts'
import { MAX_SCORE } from '../src/fraud-config.ts'
import { createDb } from '../server/db/create-db.ts'
import { loadReviews } from '../server/lifecycle/load-review-config.ts'
import { makeNoisePng, makeSignaturePng, pngDataUrl } from '../scripts/seed/png.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'
import { compileProductForTests, productScript } from '../tests/server/support/compiled-product.ts'
import { loginAsStaff, percentile, request } from './http.ts'
import { readRss, startProductServer } from './processes.ts'
import { count, formatTable, mib, ms, type ResultRow } from './report.ts'
import { claimantAddress, claimMultipart, MULTIPART_TYPE } from './submission-bench.ts'
import { DAY_MS } from '../src/durations.ts'

// npm run bench:filing -- [--claims N] [--compiled] [--keep]: seeds N Earnin claims (10,000 by default) in SQLite, ties
// each to a main-form intake (its address), approves them and puts them in a notice batch sent 61 days
// ago; starts the product (server/start.ts; with --compiled, the server compiled to JavaScript as
// `npm run start:prod` runs it, without tsx's loader in each thread), then builds one filing batch of every claim (spreadsheet,
// N demand PDFs, manifest) while a claimant sends a claim and a reviewer asks the dashboard's list one
// after another. Reports the build's time, the server's peak resident memory, and the claims' and the
// list's times during the build beside their times before it.
const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '10000' },
    compiled: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const claims = Number(values.claims)
if (!Number.isInteger(claims) || claims < 100) throw new Error('--claims takes a whole number, 100 or more')
const APP = 'earnin'
/** The status its review's notice and filing batches take claims in. */
const READY = loadReviews(path.join(import.meta.dirname, '..', 'forms'), [APP])(APP).roles.readyToFile
const IDLE_MS = 10_000
// the budgets: 10,000 claims in under 10 minutes, under 500 MB
const BUILD_BUDGET_S = 600
const MEMORY_BUDGET = 500 * 1024 * 1024

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-filing-bench-'))
const dataDir = path.join(workDir, 'data')
let stopServer: (() => Promise<void>) | undefined
try {
  await runSeed({ claims, dataDir, hotApp: APP, hotShare: 1, agreementEvery: 0 })
  await readyForFiling()
  const adminPassword = crypto.randomBytes(12).toString('base64url')
  let compiledStart: string | undefined
  if (values.compiled) {
    console.log('compiling the server (tsc)…')
    await compileProductForTests()
    compiledStart = productScript('server/start')[0]
  }
  console.log(`starting the product (${compiledStart ? 'compiled' : 'node --import tsx server/start.ts'})…`)
  const server = await startProductServer({
    dataDir,
    databaseUrl: undefined,
    adminPassword,
    logFile: path.join(workDir, 'server.log'),
    compiledStart,
  })
  stopServer = server.stop
  const cookie = await loginAsStaff(server.url, adminPassword)
  const png = makeNoisePng()
  const signature = pngDataUrl(makeSignaturePng())
  let claimant = 0
  const sendClaim = () => {
    const n = claimant++
    return request(`${server.url}/api/forms/${APP}/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': MULTIPART_TYPE, ...claimantAddress(n) },
      body: claimMultipart({ n, png, signature }),
    })
  }
  const listPage = () =>
    request(`${server.url}/api/staff/apps/${APP}/submissions?status=received`, {
      headers: { Cookie: cookie },
    })

  console.log(`a claim and the dashboard's list, one after another, idle, for ${IDLE_MS / 1000} s…`)
  const idleUntil = Date.now() + IDLE_MS
  const idle = await Promise.all([
    timeLoop(sendClaim, () => Date.now() > idleUntil, 201),
    timeLoop(listPage, () => Date.now() > idleUntil, 200),
  ])

  console.log(`one filing batch of ${count(claims)} claims, a claim and the list asked meanwhile…`)
  const baseRss = readRss(server.pid)
  let peakRss = baseRss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, readRss(server.pid))), 250)
  const began = performance.now()
  const started = await request(`${server.url}/api/staff/apps/${APP}/batches`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind: 'filing' }),
  })
  if (started.status !== 202)
    throw new Error(`the batch answered ${started.status}: ${started.body.toString()}`)
  const { id } = JSON.parse(started.body.toString()) as Batch
  let batch: Batch | undefined
  const isOver = () => batch !== undefined && batch.status !== 'building'
  const follow = async () => {
    while (!isOver()) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const polled = await request(`${server.url}/api/staff/apps/${APP}/batches/${id}`, {
        headers: { Cookie: cookie },
        newConnection: true,
      })
      batch = JSON.parse(polled.body.toString()) as Batch
    }
  }
  const [during] = await Promise.all([
    Promise.all([timeLoop(sendClaim, isOver, 201), timeLoop(listPage, isOver, 200)]),
    follow(),
  ])
  const seconds = (performance.now() - began) / 1000
  clearInterval(sampler)
  if (batch?.status !== 'ready' || batch.claimCount !== claims) {
    throw new Error(
      `the batch ended ${batch?.status} (${batch?.problem ?? ''}) with ${batch?.claimCount} claims`,
    )
  }
  const rows: ResultRow[] = [
    {
      benchmark: `filing batch of ${count(claims)} claims (spreadsheet, ${count(claims)} demand PDFs, manifest), ZIP ${mib(batch.bytes ?? 0)}`,
      figure: `${seconds.toFixed(1)} s (${(claims / seconds).toFixed(0)} PDFs a second)`,
      budget: `≤ ${BUILD_BUDGET_S} s`,
      isWithinBudget: seconds <= BUILD_BUDGET_S,
    },
    {
      benchmark: 'server resident memory during the build (all its processes)',
      figure: `peak ${mib(peakRss)} (${mib(baseRss)} before)`,
      budget: `< ${mib(MEMORY_BUDGET)}`,
      isWithinBudget: peakRss < MEMORY_BUDGET,
    },
    timesRow('a claim, one after another, idle', idle[0]),
    timesRow('a claim, one after another, during the build', during[0]),
    timesRow("the dashboard's list (status filter), idle", idle[1]),
    timesRow("the dashboard's list (status filter), during the build", during[1]),
  ]
  console.log(`\n${formatTable(rows)}`)
} finally {
  await stopServer?.()
  if (values.keep) console.log(`kept ${workDir}`)
  else fs.rmSync(workDir, { recursive: true, force: true })
}

/**
 * The seeded claims as a filing batch finds them: each tied to a seeded intake (its address) as through
 * its Step 2 link, approved,
 * scored clear of the fraud hold (the bench times the build, not the scoring), and in one notice batch
 * sent 61 days ago, so the waiting period is over.
 */
async function readyForFiling(): Promise<void> {
  const { db } = createDb({ databaseUrl: undefined, dataDir })
  try {
    const intakes = await db.selectFrom('form_submissions').select('id').orderBy('id').limit(claims).execute()
    if (intakes.length === 0) throw new Error('the seed made no main-form intake to take addresses from')
    const now = Date.now()
    const notice = await db
      .insertInto('filing_batches')
      .values({
        app: APP,
        kind: 'notice',
        status: 'ready',
        problem: null,
        provider: null,
        claim_count: claims,
        created_at: now - 62 * DAY_MS,
        account_id: 1,
        actor: 'bench',
        client_address: '127.0.0.1',
        link_origin: '',
        lease_owner: null,
        lease_until: null,
        file_key: null,
        bytes: null,
        sha256: null,
        batch_hash: null,
        sent_on: new Date(now - 61 * DAY_MS).toISOString().slice(0, 10),
        sent_method: 'mail',
        sent_tracking: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const ids = (
      await db.selectFrom('claims').select('id').where('app', '=', APP).orderBy('id').execute()
    ).map((row) => Number(row.id))
    await db.transaction().execute(async (trx) => {
      for (const [index, id] of ids.entries()) {
        await trx
          .updateTable('claims')
          .set({
            intake_id: Number(intakes[index % intakes.length]!.id),
            // as through the intake's Step 2 link: the notice may print its address (intake-ties.ts)
            intake_by_link: 1,
            review_status: READY,
            notice_batch_id: Number(notice.id),
            fraud_score: MAX_SCORE,
          })
          .where('id', '=', id)
          .execute()
      }
      await trx
        .updateTable('fraud_scores')
        .set({ reasons: '[]', scored_at: now, due_at: null })
        .where('claim_id', 'in', trx.selectFrom('claims').select('id').where('app', '=', APP))
        .execute()
    })
  } finally {
    await db.destroy()
  }
}

/** Sends `ask` one after another until `isOver`, each answer checked; the times, sorted. */
async function timeLoop(
  ask: () => Promise<{ status: number; body: Buffer }>,
  isOver: () => boolean,
  expected: number,
): Promise<number[]> {
  const samples: number[] = []
  while (!isOver()) {
    const began = performance.now()
    const answer = await ask()
    samples.push(performance.now() - began)
    if (answer.status !== expected)
      throw new Error(`answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return samples.sort((a, b) => a - b)
}

function timesRow(benchmark: string, samples: number[]): ResultRow {
  return {
    benchmark: `${benchmark} (${count(samples.length)})`,
    figure: `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, max ${ms(samples.at(-1) ?? NaN)}`,
    budget: 'information',
  }
}
