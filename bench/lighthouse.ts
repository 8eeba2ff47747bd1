import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { parseArgs } from 'node:util'
import lighthouse from 'lighthouse'
import { chromiumPath, LAUNCH_ARGS } from '../tests/e2e/chromium.ts'

// npm run bench:lighthouse [-- --runs 3] [--details] [--out DIR]
// Starts the built server (server/start.ts, which rebuilds a stale client) on 127.0.0.1 with a throw-away
// DATA_DIR, runs Lighthouse's default mobile emulation (Moto G Power, simulated slow 4G, 4x CPU) on
// each page and prints the median scores of --runs runs beside the budgets. A miss is printed as MISS;
// it exits non-zero only on an error.
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    details: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
})
const runs = Number(args.runs)
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error('--runs must be a whole number above 0')
  process.exit(2)
}

const ROOT = path.resolve(import.meta.dirname, '..')
const PAGES = ['/', '/brigit', '/brigit?lang=es', '/view-agreement']
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
/** The lowest passing score (0-100) per category; SEO is reported without a budget. */
const BUDGETS: Record<Category, number | undefined> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 95,
  seo: undefined,
}
const START_TIMEOUT_MS = 240_000

interface PageFigure {
  page: string
  scores: Record<Category, number>
  metrics: string
  findings: string[]
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-lighthouse-'))
const children: ChildProcess[] = []
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

try {
  const server = await startServer()
  const chrome = await startChrome()
  const figures: PageFigure[] = []
  for (const page of PAGES)
    figures.push(await auditPage({ url: `${server.url}${page}`, page, port: chrome.port }))
  console.log(formatFigures(figures))
  if (args.details) {
    for (const figure of figures) {
      console.log(`\n${figure.page}: ${figure.metrics}`)
      for (const finding of figure.findings) console.log(`  - ${finding}`)
    }
  }
} finally {
  for (const child of children.splice(0)) await stop(child)
  fs.rmSync(workDir, { recursive: true, force: true })
}

/** Runs Lighthouse `runs` times on one page and keeps the run with the median performance score. */
async function auditPage({
  url,
  page,
  port,
}: {
  url: string
  page: string
  port: number
}): Promise<PageFigure> {
  const results = []
  for (let run = 0; run < runs; run++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
    if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`)
    results.push(result)
  }
  results.sort(
    (a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0),
  )
  const { lhr, report } = results[Math.floor(results.length / 2)]!
  if (args.out) {
    fs.mkdirSync(args.out, { recursive: true })
    const name = page === '/' ? 'home' : page.slice(1)
    fs.writeFileSync(path.join(args.out, `${name}.json`), Array.isArray(report) ? report[0]! : report)
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
  ) as Record<Category, number>
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? 'n/a'
  const metrics = `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`
  // every audit that cost points, in the categories this page is judged on
  const findings = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => `${category}: ${audit!.id} (${audit!.score}) ${audit!.displayValue ?? audit!.title}`),
  )
  return { page, scores, metrics, findings }
}

function isWithinBudget(figure: PageFigure): boolean {
  return CATEGORIES.every((category) => {
    const budget = BUDGETS[category]
    return budget === undefined || figure.scores[category] >= budget
  })
}

function formatFigures(figures: PageFigure[]): string {
  const header = [
    'Page',
    'Performance (≥ 95)',
    'Accessibility (= 100)',
    'Best practices (≥ 95)',
    'SEO',
    'Result',
  ]
  const rows = figures.map((figure) => [
    figure.page,
    ...CATEGORIES.map((category) => String(figure.scores[category])),
    isWithinBudget(figure) ? 'PASS' : 'MISS',
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  )
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}

/** `npm start`'s server on a free port and a throw-away DATA_DIR; resolves once it answers. */
async function startServer(): Promise<{ url: string }> {
  const port = await findFreePort()
  const logFile = path.join(workDir, 'server.log')
  const log = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(workDir, 'data'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  })
  fs.closeSync(log)
  children.push(child)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited before it listened:\n${fs.readFileSync(logFile, 'utf8')}`)
    }
    if (Date.now() > deadline)
      throw new Error(`the server did not answer within ${START_TIMEOUT_MS / 1000} s`)
    try {
      const response = await fetch(`${url}/api/forms/brigit`, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.ok) return { url }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Chromium with a DevTools port for Lighthouse: CHROMIUM_PATH, else Debian's, else @sparticuz/chromium's. */
async function startChrome(): Promise<{ port: number }> {
  const child = spawn(
    await chromiumPath(),
    [
      ...LAUNCH_ARGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${path.join(workDir, 'chrome')}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  children.push(child)
  // Chromium prints "DevTools listening on ws://127.0.0.1:PORT/…" once it is ready
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stderr! })
    const timer = setTimeout(() => reject(new Error('Chromium did not open its DevTools port')), 30_000)
    lines.on('line', (line) => {
      const port = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line)?.[1]
      if (!port) return
      clearTimeout(timer)
      lines.removeAllListeners('line')
      child.stderr!.resume()
      resolve({ port: Number(port) })
    })
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before it was ready`)))
  })
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}
