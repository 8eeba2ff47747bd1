import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchSearches, benchStats, sampleClaimants, searchTerms } from './dashboard-bench.ts'
import { benchExport, type ExportResult } from './export-bench.ts'
import { loginAsStaff, percentile } from './http.ts'
import { benchLookup } from './lookup-bench.ts'
import { makeNoisePng, makeSignaturePng, pngDataUrl } from '../scripts/seed/png.ts'
import {
  pauseProcess,
  readCpuTime,
  startBaselineServer,
  startPostgres,
  startProductServer,
  type CpuTime,
  type RunningProcess,
} from './processes.ts'
import { count, formatTable, mib, ms, type ResultRow } from './report.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'
import { runSubmissionLoad } from './submission-bench.ts'

// npm run bench [-- --postgres] [--claims N] [--quick] [--hot-app SLUG] [--seconds S] [--warmup S] [--connections C] [--pairs P] [--submissions-only | --export-only] [--keep]
const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    claims: { type: 'string' },
    'hot-app': { type: 'string', default: 'brigit' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    pairs: { type: 'string' },
    keep: { type: 'boolean', default: false },
    // the seed, then the submission loads alone (no dashboard, lookup or export)
    'submissions-only': { type: 'boolean', default: false },
    // the seed, then the CSV exports alone (no dashboard, lookup or submission loads)
    'export-only': { type: 'boolean', default: false },
  },
})
const hotClaims = Number(args.claims ?? (args.quick ? 20_000 : 1_000_000))
const seconds = Number(args.seconds)
const connections = Number(args.connections)
const warmup = Number(args.warmup)
// alternating baseline/product pairs of submission loads (one with --quick)
const pairs = Number(args.pairs ?? (args.quick ? 1 : 3))
if (![hotClaims, seconds, connections, pairs].every((n) => Number.isSafeInteger(n) && n > 0)) {
  console.error('--claims, --seconds, --connections and --pairs must be whole numbers above 0')
  process.exit(2)
}
if (!(Number.isSafeInteger(warmup) && warmup >= 0)) {
  console.error('--warmup must be a whole number of seconds (0 for none)')
  process.exit(2)
}
if (args['submissions-only'] && args['export-only']) {
  console.error('--submissions-only and --export-only exclude each other')
  process.exit(2)
}
const hotApp = args['hot-app']
// as npm start runs it: SERVER_PROCESSES from the environment, else 1 (server/config.ts)
const productProcesses = Number(process.env.SERVER_PROCESSES || 1)
const dialect = args.postgres ? 'postgres' : 'sqlite'
const EXPORT_RUNS = 3
// how long the bench waits, after the submission loads, for the product to send their e-mail copies
// (with --submissions-only too: the copies are the submissions' own work)
const COPIES_WAIT_MS = 180_000
const budgets = {
  searchP95: dialect === 'postgres' ? 25 : 15,
  // PostgreSQL counts a surname's thousands of matches row by row (BENCHMARKS.md): its own budget there
  surnameSearchP95: dialect === 'postgres' ? 40 : 15,
  statsP95: 20,
  lookupP95: 10,
  // of the bare baseline's claims a second, the median pair: the product does the sealed record, the
  // evidence ledger, the public limits and the duplicate queue a claim, which the baseline does not
  submissionRatio: dialect === 'postgres' ? 0.5 : 0.55,
  submissionP99: 250,
  // the e-mail copies after the loads: a second, and the first one's wait
  copiesPerSecond: 10,
  firstCopySeconds: 60,
}
const log = (line: string) => console.log(line)

// with --postgres, the baseline handler's own database on the same PostgreSQL server
let baselineDatabaseUrl: string | undefined
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bench-'))
// the product's DATA_DIR: the seeded database, screenshots and the outbox of e-mail copies
const seedDir = path.join(workDir, 'data')
const stops: (() => Promise<void>)[] = []
let interrupted = false
process.once('SIGINT', () => {
  interrupted = true
  log('\ninterrupted: stopping the servers…')
  void cleanUp().finally(() => process.exit(130))
})

async function cleanUp(): Promise<void> {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined)
  if (!args.keep) fs.rmSync(workDir, { recursive: true, force: true })
}

async function main(): Promise<ResultRow[]> {
  log(
    `claims-intake bench: ${new Date().toISOString()}, ${os.availableParallelism()} cores, ` +
      `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}, ${dialect}` +
      `${args.quick ? ' (quick)' : ''}, work dir ${workDir}`,
  )
  let databaseUrl: string | undefined
  let postgresMemory: string | undefined
  if (dialect === 'postgres') {
    log('starting embedded PostgreSQL (tests/server/support/postgres-process.ts)…')
    const postgres = await startPostgres()
    stops.push(postgres.stop)
    databaseUrl = postgres.url
    baselineDatabaseUrl = postgres.baselineUrl
    postgresMemory = postgres.memory
    log(`PostgreSQL: ${postgres.memory}`)
  }
  // the hot app gets --claims; the ten others share a tenth as many again
  const totalClaims = Math.round(hotClaims * 1.1)
  const seed = await runSeed({
    claims: totalClaims,
    dataDir: seedDir,
    databaseUrl,
    hotApp,
    hotShare: 1 / 1.1,
    log,
  })
  const hotCount = seed.perApp.get(hotApp) ?? 0
  const rows: ResultRow[] = [
    ...(postgresMemory
      ? [{ benchmark: 'PostgreSQL memory', figure: postgresMemory, budget: 'information' }]
      : []),
    {
      benchmark: `seed ${count(totalClaims)} claims (${hotApp} ${count(hotCount)}) + intakes`,
      figure: `${seed.seconds.toFixed(1)} s (${count(totalClaims / seed.seconds)} claims/s)`,
      budget: 'information',
    },
  ]

  log(
    `starting the product (node --import tsx server/start.ts, ${productProcesses} server process${productProcesses === 1 ? '' : 'es'})…`,
  )
  const adminPassword = crypto.randomBytes(12).toString('base64url')
  const server = await startProductServer({
    dataDir: seedDir,
    databaseUrl,
    adminPassword,
    logFile: path.join(workDir, 'server.log'),
  })
  stops.push(server.stop)
  if (args['submissions-only']) return [...rows, ...(await benchSubmissions(server))]
  const cookie = await loginAsStaff(server.url, adminPassword)
  if (args['export-only']) return [...rows, ...(await benchCsvExports(server, cookie))]

  log(`dashboard at ${count(hotCount)} ${hotApp} claims…`)
  const sample = sampleClaimants({ plan: seed.plan, claims: totalClaims, app: hotApp, count: 60, salt: 101 })
  const searches = await benchSearches({
    baseUrl: server.url,
    cookie,
    app: hotApp,
    terms: { '(no term) first page': Array(50).fill(''), ...searchTerms(sample) },
    maxMs: 60_000,
  })
  const broad = await benchSearches({
    baseUrl: server.url,
    cookie,
    app: hotApp,
    terms: { 'broad term "an"': Array(10).fill('an') },
    maxMs: 60_000,
  })
  for (const search of [...searches, ...broad]) {
    const hasBudget = !search.kind.startsWith('(no term)') && !search.kind.startsWith('broad')
    const p95Budget = search.kind.includes('surname') ? budgets.surnameSearchP95 : budgets.searchP95
    rows.push({
      benchmark: `search: ${search.kind} (n=${search.count}, median ${count(search.medianMatches)} matches)`,
      figure: `p50 ${ms(search.p50)}, p95 ${ms(search.p95)}`,
      budget: hasBudget ? `p95 ≤ ${p95Budget} ms` : 'reported only',
      isWithinBudget: hasBudget ? search.p95 <= p95Budget : undefined,
    })
  }
  const otherApps = seed.plan.apps.filter((app) => app !== hotApp)
  for (const [label, apps, perApp] of [
    [`${hotApp}, ${count(hotCount)} claims`, [hotApp], 50],
    [`the 10 other apps, ~${count((totalClaims - hotCount) / otherApps.length)} claims each`, otherApps, 5],
  ] as const) {
    const stats = await benchStats({ baseUrl: server.url, cookie, apps: [...apps], perApp, maxMs: 90_000 })
    rows.push({
      benchmark: `stats: ${label} (n=${stats.count})`,
      figure: `p50 ${ms(stats.p50)}, p95 ${ms(stats.p95)}`,
      budget: `p95 ≤ ${budgets.statsP95} ms`,
      isWithinBudget: stats.p95 <= budgets.statsP95,
    })
  }

  log('agreement lookup…')
  const signed = sampleClaimants({
    plan: seed.plan,
    claims: totalClaims,
    app: hotApp,
    count: 200,
    salt: 202,
    every: totalClaims <= 10_000 ? 1 : 100,
  })
  const lookup = await benchLookup({ baseUrl: server.url, claimants: signed, maxMs: 60_000 })
  rows.push({
    benchmark: `agreement lookup, e-mail + phone (n=${lookup.count})`,
    figure: `p50 ${ms(lookup.p50)}, p95 ${ms(lookup.p95)}`,
    budget: `p95 ≤ ${budgets.lookupP95} ms`,
    isWithinBudget: lookup.p95 <= budgets.lookupP95,
  })

  rows.push(...(await benchCsvExports(server, cookie)))
  rows.push(...(await benchSubmissions(server)))
  return rows
}

/** EXPORT_RUNS downloads of the hot app's CSV: the median's rows a second, the most memory any took. */
async function benchCsvExports(server: RunningProcess, cookie: string): Promise<ResultRow[]> {
  log(`CSV export of ${hotApp}…`)
  // three downloads: one alone swung from 176,000 to 280,000 rows/s between runs of the same code
  const exports: ExportResult[] = []
  for (let run = 0; run < EXPORT_RUNS; run++) {
    exports.push(await benchExport({ baseUrl: server.url, cookie, app: hotApp, serverPid: server.pid }))
  }
  const csv = exports.toSorted((a, b) => a.rowsPerSecond - b.rowsPerSecond)[Math.floor(EXPORT_RUNS / 2)]!
  const mostMemory = exports.reduce((most, run) => (run.rssGrowth > most.rssGrowth ? run : most))
  return [
    {
      benchmark: `CSV export: ${count(csv.rows)} rows, ${csv.megabytes.toFixed(0)} MB, ${EXPORT_RUNS} runs (${exports.map((run) => `${run.seconds.toFixed(1)} s`).join(', ')})`,
      figure: `median ${count(csv.rowsPerSecond)} rows/s`,
      budget: '≥ 200,000 rows/s',
      isWithinBudget: csv.rowsPerSecond >= 200_000,
    },
    {
      benchmark: `CSV export: server RSS growth, the most of ${EXPORT_RUNS} runs (${mib(mostMemory.rssBefore)} → peak ${mib(mostMemory.rssPeak)})`,
      figure: mib(mostMemory.rssGrowth),
      budget: '≤ 100 MB',
      isWithinBudget: mostMemory.rssGrowth <= 100 * 1024 * 1024,
    },
    {
      benchmark: `CSV export: the server's CPU, all threads (runs: ${exports.map((run) => `${run.serverCpuSeconds.toFixed(1)} s`).join(', ')})`,
      figure: `median run ${csv.serverCpuSeconds.toFixed(1)} s, ${count(csv.rows / csv.serverCpuSeconds)} rows a CPU-second`,
      budget: 'information',
    },
  ]
}

/** The agreement copies the product has written to its outbox (no SMTP_URL in the bench). */
function countOutbox(): number {
  const outbox = path.join(seedDir, 'outbox')
  return fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')).length : 0
}

/**
 * The baseline handler and the product under the same load, in `--pairs` pairs that alternate which
 * goes first (baseline-product, product-baseline, …), both servers running throughout. The machine's
 * speed drifts by a quarter within minutes, and one pair in one order carried that drift into the
 * ratio; each pair's ratio is taken within the minute it ran, and the median pair is the figure. Each
 * server first takes `--warmup` seconds of the same load, untimed: a server that has run for a while
 * has compiled its hot code, and one started a second ago is still compiling it (for the product,
 * about a tenth of the CPU in the first seconds went to V8's optimising compiler).
 */
async function benchSubmissions(product: RunningProcess): Promise<ResultRow[]> {
  const png = makeNoisePng()
  const signature = pngDataUrl(makeSignaturePng())
  const load = { app: hotApp, png, signature, connections, seconds, maxRequests: 40_000 * seconds }
  log(
    `submissions: ${pairs} alternating pair${pairs === 1 ? '' : 's'} of loads, ${connections} connections, ` +
      `${warmup} s untimed then ${seconds} s each, ${(png.length / 1024).toFixed(0)} KB PNG…`,
  )
  const warmUp = async (url: string) =>
    warmup > 0 ? (await runSubmissionLoad({ url, ...load, seconds: warmup })).ok + 1 : 0
  // on PostgreSQL the baseline's one insert goes to PostgreSQL too: the product is held to that
  const baseline = await startBaselineServer({
    dataDir: path.join(workDir, 'baseline'),
    logFile: path.join(workDir, 'baseline.log'),
    databaseUrl: baselineDatabaseUrl,
  })
  stops.push(baseline.stop)
  // the baseline's files stay until the end: removed between loads, they made the other server's new
  // files slower to create (ext4 skips recently freed inodes; the kernel's share of the CPU doubled)
  await warmUp(baseline.url)
  const copiesBefore = countOutbox()
  const productWarmUpClaims = await warmUp(product.url)
  // the other server is stopped while one is measured
  const measure = async (server: RunningProcess, other: RunningProcess): Promise<MeasuredLoad> => {
    const resumeOther = pauseProcess(other.pid)
    try {
      const cpuBefore = readCpuTime(server.pid)
      const result = await runSubmissionLoad({ url: server.url, ...load })
      return { ...result, cpu: cpuPerClaim(cpuBefore, readCpuTime(server.pid), result.ok) }
    } finally {
      resumeOther()
    }
  }
  const bares: MeasuredLoad[] = []
  const reals: MeasuredLoad[] = []
  for (let pair = 0; pair < pairs; pair++) {
    if (pair % 2 === 0) {
      bares.push(await measure(baseline, product))
      reals.push(await measure(product, baseline))
    } else {
      reals.push(await measure(product, baseline))
      bares.push(await measure(baseline, product))
    }
    log(`  pair ${pair + 1}: ${describeLoad(bares[pair]!)} against ${describeLoad(reals[pair]!)}`)
  }
  await baseline.stop()
  // on PostgreSQL, the SQLite baseline once more, for comparison with the SQLite runs (information only)
  const sqliteBare = baselineDatabaseUrl ? await measureSqliteBaseline(product, warmUp, measure) : undefined
  const loadEnded = Date.now()
  const cpuAtLoadEnd = readCpuTime(product.pid)
  const ratios = reals.map((real, pair) => real.requestsPerSecond / bares[pair]!.requestsPerSecond)
  const ratio = median(ratios)
  // the e-mail copies are queued with the claims and sent when the server is quiet: time the catch-up
  const copiesDuringLoad = countOutbox() - copiesBefore
  // + the claim each load sends on its own first, and the warm-up's claims
  const expectedCopies = productWarmUpClaims + reals.reduce((sum, real) => sum + real.ok + 1, 0)
  log(`e-mail copies: ${count(copiesDuringLoad)} of ${count(expectedCopies)} sent during the loads; waiting…`)
  let firstCopyAfter: number | undefined
  let nextLog = loadEnded + 30_000
  while (countOutbox() - copiesBefore < expectedCopies && Date.now() - loadEnded < COPIES_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    if (firstCopyAfter === undefined && countOutbox() - copiesBefore > copiesDuringLoad) {
      firstCopyAfter = (Date.now() - loadEnded) / 1000
    }
    if (Date.now() >= nextLog) {
      log(
        `  ${count(countOutbox() - copiesBefore)} sent ${((Date.now() - loadEnded) / 1000).toFixed(0)} s after the loads`,
      )
      nextLog += 30_000
    }
  }
  const copiesSent = countOutbox() - copiesBefore
  const catchUp = (Date.now() - loadEnded) / 1000
  // the server's CPU over the catch-up (its other background work too, the screenshot checks) a copy:
  // steadier than the rate when other work shares the machine, as the PDF thread yields to it
  const cpuPerCopy =
    (readCpuTime(product.pid).all - cpuAtLoadEnd.all) / Math.max(copiesSent - copiesDuringLoad, 1)
  const copiesPerSecond = (copiesSent - copiesDuringLoad) / Math.max(catchUp, 0.001)
  const cpuRatio = cpuOfAll(reals).all / cpuOfAll(bares).all
  const realClaims = reals.reduce((sum, real) => sum + real.ok, 0)
  const worstP99 = Math.max(...reals.map((real) => real.p99))
  const failures = reals.reduce((sum, real) => sum + real.non2xx + real.errors, 0)
  const each = (loads: MeasuredLoad[]) => loads.map((run) => run.requestsPerSecond.toFixed(0)).join(', ')
  const baselineStore = baselineDatabaseUrl ? 'PostgreSQL' : 'SQLite'
  return [
    {
      benchmark: `submissions: baseline, one process (bench/baseline-server.ts, ${baselineStore}), ${pairs} loads (${each(bares)} req/s)`,
      figure: describeLoads(bares),
      budget: 'reference',
    },
    {
      benchmark: `submissions: product, ${productProcesses} server process${productProcesses === 1 ? '' : 'es'}, ${pairs} loads (${each(reals)} req/s; ${count(realClaims)} claims)`,
      figure: describeLoads(reals),
      budget: `p99 < ${budgets.submissionP99} ms (the worst load)`,
      isWithinBudget: worstP99 < budgets.submissionP99 && failures === 0,
    },
    {
      benchmark: 'submissions: server CPU per claim, event loop / all threads (all loads)',
      figure: `product ${describeCpu(cpuOfAll(reals))}; baseline ${describeCpu(cpuOfAll(bares))}`,
      budget: 'information',
    },
    {
      benchmark: 'submissions: server CPU per claim, all threads, product ÷ baseline (all loads)',
      figure: `${cpuRatio.toFixed(2)} ×`,
      // steadier than the ratio of claims a second: compared with the figure in BENCHMARKS.md
      budget: 'a rise of over 10 % is a regression to explain',
    },
    {
      benchmark:
        `submissions: e-mail copies, each with its sealed PDF (${count(copiesDuringLoad)} sent while the claims came in; ` +
        `${count(copiesSent)} of ${count(expectedCopies)} by ${catchUp.toFixed(1)} s after the loads)`,
      figure:
        `${copiesPerSecond.toFixed(1)} a second, the first ` +
        (firstCopyAfter === undefined ? 'never' : `${firstCopyAfter.toFixed(1)} s after the loads`) +
        `; server CPU ${ms(cpuPerCopy)} a copy`,
      budget: `≥ ${budgets.copiesPerSecond} a second, the first within ${budgets.firstCopySeconds} s`,
      isWithinBudget:
        copiesDuringLoad >= expectedCopies ||
        (copiesPerSecond >= budgets.copiesPerSecond &&
          firstCopyAfter !== undefined &&
          firstCopyAfter <= budgets.firstCopySeconds),
    },
    {
      benchmark: `submissions: product / baseline, median of ${pairs} pair${pairs === 1 ? '' : 's'} (${ratios.map((each) => `${(each * 100).toFixed(0)} %`).join(', ')})`,
      figure: `${(ratio * 100).toFixed(0)} %`,
      budget: `≥ ${(budgets.submissionRatio * 100).toFixed(0)} %`,
      isWithinBudget: ratio >= budgets.submissionRatio,
    },
    ...(sqliteBare
      ? [
          {
            benchmark: `submissions: the SQLite baseline, one load (${describeLoads([sqliteBare])}); product's median / it`,
            figure: `${((median(reals.map((real) => real.requestsPerSecond)) / sqliteBare.requestsPerSecond) * 100).toFixed(0)} %`,
            budget: 'information',
          },
        ]
      : []),
  ]
}

/** The SQLite baseline handler, warmed up, then one measured load while the product is stopped. */
async function measureSqliteBaseline(
  product: RunningProcess,
  warmUp: (url: string) => Promise<number>,
  measure: (server: RunningProcess, other: RunningProcess) => Promise<MeasuredLoad>,
): Promise<MeasuredLoad> {
  const sqliteBaseline = await startBaselineServer({
    dataDir: path.join(workDir, 'baseline-sqlite'),
    logFile: path.join(workDir, 'baseline-sqlite.log'),
  })
  stops.push(sqliteBaseline.stop)
  try {
    const resumeProduct = pauseProcess(product.pid)
    try {
      await warmUp(sqliteBaseline.url)
    } finally {
      resumeProduct()
    }
    return await measure(sqliteBaseline, product)
  } finally {
    await sqliteBaseline.stop()
  }
}

type MeasuredLoad = Awaited<ReturnType<typeof runSubmissionLoad>> & { cpu: CpuTime }

function describeLoad(load: MeasuredLoad): string {
  return `${load.requestsPerSecond.toFixed(0)} req/s`
}

/** The median load's req/s and p50, the worst p99, and any failures of all the loads. */
function describeLoads(loads: MeasuredLoad[]): string {
  const failures = loads.reduce((sum, load) => sum + load.non2xx, 0)
  const errors = loads.reduce((sum, load) => sum + load.errors, 0)
  return (
    `median ${median(loads.map((load) => load.requestsPerSecond)).toFixed(0)} req/s, ` +
    `p50 ${ms(median(loads.map((load) => load.p50)))}, p99 ${ms(Math.max(...loads.map((load) => load.p99)))} (worst)` +
    (failures + errors > 0 ? `, ${failures} non-2xx, ${errors} errors` : '')
  )
}

/** The CPU per claim over several loads: their CPU added up, over their claims added up. */
function cpuOfAll(loads: MeasuredLoad[]): CpuTime {
  const claims = loads.reduce((sum, load) => sum + load.ok, 0)
  const total = (pick: (cpu: CpuTime) => number) =>
    loads.reduce((sum, load) => sum + pick(load.cpu) * load.ok, 0) / Math.max(claims, 1)
  return { eventLoop: total((cpu) => cpu.eventLoop), all: total((cpu) => cpu.all) }
}

/** The middle value; of an even count, the lower of the two middle ones. */
function median(values: number[]): number {
  return percentile(
    values.toSorted((a, b) => a - b),
    50,
  )
}

/** The CPU a load cost its server per claim answered. */
function cpuPerClaim(before: CpuTime, after: CpuTime, claims: number): CpuTime {
  return {
    eventLoop: (after.eventLoop - before.eventLoop) / Math.max(claims, 1),
    all: (after.all - before.all) / Math.max(claims, 1),
  }
}

function describeCpu({ eventLoop, all }: CpuTime): string {
  return `${eventLoop.toFixed(2)} / ${all.toFixed(2)} ms`
}

try {
  const rows = await main()
  log(`\nResults (${dialect}, ${new Date().toISOString().slice(0, 10)}):\n`)
  log(formatTable(rows))
  const missed = rows.filter((row) => row.isWithinBudget === false).length
  log(`\n${missed === 0 ? 'every budget met' : `${missed} budget(s) missed`} (a miss never fails the run)`)
  await cleanUp()
} catch (error) {
  if (!interrupted) {
    console.error('\nbench failed:', error instanceof Error ? (error.stack ?? error.message) : error)
    await cleanUp()
    process.exit(1)
  }
}
