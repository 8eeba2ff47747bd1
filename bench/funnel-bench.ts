import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import type { Funnel } from '../src/api/funnel.ts'
import { createDb } from '../server/db/create-db.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'
import { loginAsStaff, percentile, request } from './http.ts'
import { startPostgres, startProductServer } from './processes.ts'
import { count, formatTable, ms, type ResultRow } from './report.ts'

// npm run bench:funnel -- [--claims N] [--postgres] [--requests R]: seeds N claims (1,000,000 by default)
// with their intakes, gives them five campaign sources (the counters follow by their triggers), starts
// the product and asks the Funnel page's figures R times (200) one after another, for the last 30 days
// and for two years, and reports p50 and p95 against the page's budget.
const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    postgres: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const claims = Number(values.claims)
const requests = Number(values.requests)
if (!Number.isInteger(claims) || claims < 1000) throw new Error('--claims takes a whole number, 1000 or more')
const P95_BUDGET_MS = 100
const SOURCES = ['fb', 'tv', 'google', 'tiktok', '(none)']

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-funnel-bench-'))
const dataDir = path.join(workDir, 'data')
const postgres = values.postgres ? await startPostgres() : undefined
let stopServer: (() => Promise<void>) | undefined
try {
  await runSeed({ claims, dataDir, databaseUrl: postgres?.url })
  const began = performance.now()
  const { db } = createDb({ databaseUrl: postgres?.url, dataDir })
  try {
    const source = sql.raw(
      `CASE id % 5 ${SOURCES.map((name, i) => `WHEN ${i} THEN '${name}'`).join(' ')} END`,
    )
    // in slices: one statement over a million rows would outlast the server's statement timeout
    for (const table of ['claims', 'form_submissions']) {
      const { top } = (
        await sql<{ top: number | null }>`SELECT max(id) AS top FROM ${sql.table(table)}`.execute(db)
      ).rows[0]!
      for (let from = 0; from <= Number(top ?? 0); from += 50_000) {
        await sql`UPDATE ${sql.table(table)} SET source = ${source} WHERE id > ${from} AND id <= ${from + 50_000}`.execute(
          db,
        )
      }
    }
  } finally {
    await db.destroy()
  }
  const sourcing = (performance.now() - began) / 1000
  const adminPassword = crypto.randomBytes(12).toString('base64url')
  const server = await startProductServer({
    dataDir,
    databaseUrl: postgres?.url,
    adminPassword,
    logFile: path.join(workDir, 'server.log'),
  })
  stopServer = server.stop
  const cookie = await loginAsStaff(server.url, adminPassword)
  const today = new Date().toISOString().slice(0, 10)
  const back = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)
  const rows: ResultRow[] = [
    {
      benchmark: `give ${count(claims)} claims and their intakes a source`,
      figure: `${sourcing.toFixed(1)} s`,
      budget: 'information',
    },
  ]
  for (const [label, from] of [
    ['last 30 days', back(29)],
    ['two years', back(729)],
  ] as const) {
    const samples: number[] = []
    let funnel: Funnel | undefined
    for (let i = 0; i < requests; i++) {
      const start = performance.now()
      const answer = await request(`${server.url}/api/staff/funnel?from=${from}&to=${today}`, {
        headers: { Cookie: cookie },
      })
      samples.push(performance.now() - start)
      if (answer.status !== 200) throw new Error(`the funnel answered ${answer.status}`)
      funnel = JSON.parse(answer.body.toString()) as Funnel
    }
    samples.sort((a, b) => a - b)
    const p95 = percentile(samples, 95)
    rows.push({
      benchmark: `Funnel, ${label} (${count(funnel!.total.claims)} claims, ${funnel!.sources.length} sources), ${values.postgres ? 'PostgreSQL' : 'SQLite'}`,
      figure: `p50 ${ms(percentile(samples, 50))}, p95 ${ms(p95)}`,
      budget: `p95 ≤ ${P95_BUDGET_MS} ms`,
      isWithinBudget: p95 <= P95_BUDGET_MS,
    })
  }
  console.log(`\n${formatTable(rows)}`)
} finally {
  await stopServer?.()
  await postgres?.stop()
  if (values.keep) console.log(`kept ${workDir}`)
  else fs.rmSync(workDir, { recursive: true, force: true })
}
