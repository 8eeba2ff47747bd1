import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createDb } from '../server/db/create-db.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { verifyEvidence } from '../server/ops/verify-evidence.ts'
import { createScreenshotStorage } from '../server/uploads/create-screenshot-storage.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'

// npm run bench:evidence -- [--claims N] [--keep]: seeds N claims (1,000,000 by default), every one
// with its signed record and its seal, into a SQLite file of its own, then times verify-evidence over it.
const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '1000000' },
    keep: { type: 'boolean', default: false },
  },
})
const claims = Number(values.claims)
if (!Number.isInteger(claims) || claims < 1) throw new Error('--claims takes a whole number of claims')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-evidence-bench-'))
try {
  const seeded = await runSeed({ claims, dataDir, agreementEvery: 1 })
  const { db } = createDb({ dataDir })
  const storage = createScreenshotStorage({ dataDir, s3: undefined })
  const size = fs.statSync(path.join(dataDir, 'claims.db')).size
  const started = performance.now()
  const rss = { before: process.memoryUsage().rss, peak: 0 }
  const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, process.memoryUsage().rss)), 200)
  const report = await verifyEvidence({
    db,
    storage,
    evidenceKey: loadEvidenceKey({ setting: undefined, dataDir }),
    onProgress: (line) => (line.endsWith('00,000 claims checked') ? console.log(`  ${line}`) : undefined),
  })
  clearInterval(sampler)
  const seconds = (performance.now() - started) / 1000
  await storage.close()
  await db.destroy()
  const count = (n: number) => n.toLocaleString('en-US')
  console.log(`
verify-evidence, SQLite, ${count(report.claims)} claims (${count(seeded.agreements)} signed records, ${count(report.intakes)} intakes), database ${(size / 1e9).toFixed(1)} GB:
  ${seconds.toFixed(1)} s (${count(Math.round(report.claims / seconds))} claims/s), ${count(report.ledgerEntries)} ledger entries,
  RSS ${(rss.before / 1e6).toFixed(0)} MB before, peak ${(rss.peak / 1e6).toFixed(0)} MB; ${report.problems.length === 0 ? 'all verify' : `${report.problems.length} problems: ${report.problems.slice(0, 3).join('; ')}`}`)
} finally {
  if (values.keep) console.log(`kept ${dataDir}`)
  else fs.rmSync(dataDir, { recursive: true, force: true })
}
