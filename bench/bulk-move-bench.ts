import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { BulkMoveJob, BulkMoveStarted } from '../src/api/bulk-moves.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'
import { sampleClaimants } from './dashboard-bench.ts'
import { loginAsStaff, percentile, request, type BenchResponse } from './http.ts'
import { startProductServer } from './processes.ts'
import { count, formatTable, ms, type ResultRow } from './report.ts'

// npm run bench:bulk-moves -- [--claims N] [--moves M] [--skip-bulk] [--keep]: seeds N claims (100,000 by
// default) of one app in SQLite, starts the product (server/start.ts), times the dashboard's list (a status
// filter and a surname, one request after another, as a reviewer at work) and M single moves (200), then
// moves every claim from Received to In review in one bulk move (unless --skip-bulk: at a million claims the
// list and the single moves are the budgets' figures) and reports its time and claims a second, with the
// list asked while the job runs.
const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '100000' },
    moves: { type: 'string', default: '200' },
    'skip-bulk': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const claims = Number(values.claims)
if (!Number.isInteger(claims) || claims < 1000) throw new Error('--claims takes a whole number, 1000 or more')
const singleMoves = Number(values.moves)
if (!Number.isInteger(singleMoves) || singleMoves < 1 || singleMoves > claims / 2)
  throw new Error('--moves takes a whole number from 1 to half the claims')
const APP = 'brigit'
const IDLE_MS = 10_000
// the budgets: 100,000 claims in a minute; the list with a status filter and a term, p95 15 ms
const BULK_BUDGET_S = 60
const LIST_P95_BUDGET_MS = 15
const MOVE_P95_BUDGET_MS = 20

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bulk-move-bench-'))
const dataDir = path.join(workDir, 'data')
let stopServer: (() => Promise<void>) | undefined
try {
  const seed = await runSeed({ claims, dataDir, hotApp: APP, hotShare: 1, agreementEvery: 0 })
  const seeded = seed.perApp.get(APP) ?? 0
  const adminPassword = crypto.randomBytes(12).toString('base64url')
  console.log('starting the product (node --import tsx server/start.ts)…')
  const server = await startProductServer({
    dataDir,
    databaseUrl: undefined,
    adminPassword,
    logFile: path.join(workDir, 'server.log'),
  })
  stopServer = server.stop
  const cookie = await loginAsStaff(server.url, adminPassword)
  const surnames = sampleClaimants({ plan: seed.plan, claims, app: APP, count: 50, salt: 7 }).map(
    ({ lastName }) => lastName,
  )
  let next = 0
  const listPage = (status: string) =>
    request(
      `${server.url}/api/staff/apps/${APP}/submissions?${new URLSearchParams({ status, q: surnames[next++ % surnames.length]! })}`,
      { headers: { Cookie: cookie } },
    )

  console.log(`the list (status filter and a surname), idle, for ${IDLE_MS / 1000} s…`)
  const idle = await timeList(() => listPage('received'), { until: deadline(IDLE_MS) })

  console.log(`${count(singleMoves)} single moves (received to in_review), one after another…`)
  const moveTimes = await timeSingleMoves({ url: server.url, cookie, claims: seeded, moves: singleMoves })
  if (values['skip-bulk']) {
    console.log(
      `\n${formatTable([
        seedRow(seed.seconds, seeded),
        listRow('list, status + surname, idle', idle),
        moveRow(moveTimes),
      ])}`,
    )
  } else {
    console.log(
      `one bulk move of every ${APP} claim (${count(seeded)}) to in_review, the list asked meanwhile…`,
    )
    let job: BulkMoveJob | undefined
    const isOver = () => job?.status === 'done' || job?.status === 'failed'
    const startMove = async (to: string) => {
      const began = performance.now()
      const answer = await request(`${server.url}/api/staff/apps/${APP}/bulk-moves`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ to, note: 'bench', filter: {} }),
      })
      if (answer.status !== 202)
        throw new Error(`the bulk move answered ${answer.status}: ${answer.body.toString()}`)
      job = undefined
      return {
        ...(JSON.parse(answer.body.toString()) as BulkMoveStarted),
        began,
        startMs: performance.now() - began,
      }
    }
    const followJob = async (id: number, expected: number) => {
      while (!isOver()) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        const polled = await request(`${server.url}/api/staff/bulk-moves/${id}`, {
          headers: { Cookie: cookie },
          newConnection: true,
        })
        job = JSON.parse(polled.body.toString()) as BulkMoveJob
      }
      if (job?.status !== 'done' || job.moved !== expected) {
        throw new Error(`the bulk move ended ${job?.status} with ${job?.moved} of ${expected} moved`)
      }
      return job
    }
    const loaded = await startMove('in_review')
    const [during, movedLoaded] = await Promise.all([
      // half the list's requests ask for claims still received, half for those moved
      timeList(() => listPage(next % 2 === 0 ? 'received' : 'in_review'), { until: isOver }),
      followJob(loaded.id, seeded - singleMoves),
    ])
    const loadedSeconds = (performance.now() - loaded.began) / 1000
    console.log(`and one more (in_review to approved) with no request beside it…`)
    const alone = await startMove('approved')
    const movedAlone = await followJob(alone.id, seeded)
    const aloneSeconds = (performance.now() - alone.began) / 1000
    const rows: ResultRow[] = [
      seedRow(seed.seconds, seeded),
      {
        benchmark: `bulk move start (select and store ${count(loaded.total)} ids, 202)`,
        figure: ms(loaded.startMs),
        budget: 'information',
      },
      bulkRow(
        `bulk move of ${count(movedLoaded.moved)} claims, the list asked meanwhile`,
        movedLoaded,
        loadedSeconds,
      ),
      bulkRow(`bulk move of ${count(movedAlone.moved)} claims, nothing else asked`, movedAlone, aloneSeconds),
      listRow('list, status + surname, idle', idle),
      listRow(`list, status + surname, during the bulk move`, during),
      moveRow(moveTimes),
    ]
    console.log(`\n${formatTable(rows)}`)
  }
} finally {
  await stopServer?.()
  if (values.keep) console.log(`kept ${workDir}`)
  else fs.rmSync(workDir, { recursive: true, force: true })
}

function seedRow(seconds: number, seeded: number): ResultRow {
  return {
    benchmark: `seed ${count(seeded)} ${APP} claims`,
    figure: `${seconds.toFixed(1)} s`,
    budget: 'information',
  }
}

function moveRow(samples: number[]): ResultRow {
  const p95 = percentile(samples, 95)
  return {
    benchmark: `single move, received to in_review (${count(samples.length)} moves)`,
    figure: `p50 ${ms(percentile(samples, 50))}, p95 ${ms(p95)}, max ${ms(samples.at(-1) ?? NaN)}`,
    budget: `p95 ≤ ${MOVE_P95_BUDGET_MS} ms`,
    isWithinBudget: p95 <= MOVE_P95_BUDGET_MS,
  }
}

/**
 * `moves` claims spread over the seeded ids, each moved from received to in_review by the dashboard's
 * own request (its version read first, untimed): the move's times, sorted.
 */
async function timeSingleMoves({
  url,
  cookie,
  claims,
  moves,
}: {
  url: string
  cookie: string
  claims: number
  moves: number
}): Promise<number[]> {
  const samples: number[] = []
  const step = Math.floor(claims / moves)
  for (let i = 0; i < moves; i++) {
    const id = 1 + i * step
    const began = performance.now()
    const answer = await request(`${url}/api/staff/claims/${id}/moves`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'in_review', version: 0 }),
    })
    samples.push(performance.now() - began)
    if (answer.status !== 200)
      throw new Error(`the move of claim ${id} answered ${answer.status}: ${answer.body}`)
  }
  return samples.sort((a, b) => a - b)
}

function bulkRow(benchmark: string, job: BulkMoveJob, seconds: number): ResultRow {
  return {
    benchmark,
    figure: `${seconds.toFixed(1)} s (${count(job.moved / seconds)} claims/s)`,
    budget: `≤ ${BULK_BUDGET_S} s`,
    isWithinBudget: seconds <= BULK_BUDGET_S,
  }
}

function listRow(benchmark: string, samples: number[]): ResultRow {
  const p95 = percentile(samples, 95)
  return {
    benchmark: `${benchmark} (${count(samples.length)} requests)`,
    figure: `p50 ${ms(percentile(samples, 50))}, p95 ${ms(p95)}, max ${ms(samples.at(-1) ?? NaN)}`,
    budget: `p95 ≤ ${LIST_P95_BUDGET_MS} ms (at 1 M claims)`,
    isWithinBudget: p95 <= LIST_P95_BUDGET_MS,
  }
}

function deadline(ms: number): () => boolean {
  const end = performance.now() + ms
  return () => performance.now() >= end
}

/** Sends `send` one after another until `until()`; the times, sorted. */
async function timeList(send: () => Promise<BenchResponse>, { until }: { until: () => boolean }) {
  const samples: number[] = []
  while (!until()) {
    const began = performance.now()
    const response = await send()
    samples.push(performance.now() - began)
    if (response.status !== 200) throw new Error(`the list answered ${response.status}`)
  }
  return samples.sort((a, b) => a - b)
}
