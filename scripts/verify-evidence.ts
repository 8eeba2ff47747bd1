import { readServerConfig } from '../server/config.ts'
import { createDb } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { verifyEvidence } from '../server/ops/verify-evidence.ts'
import { createScreenshotStorage } from '../server/uploads/create-screenshot-storage.ts'

// npm run verify-evidence [-- --claim ID]: every seal, HMAC, chain link and screenshot hash recomputed,
// and the chain must reach the head anchored in DATA_DIR/evidence-head.json; exits 1 naming what fails.
// Ids and reasons only: no claimant's personal data on the terminal.
const claimArgument = process.argv.indexOf('--claim')
const claimText = claimArgument === -1 ? undefined : process.argv[claimArgument + 1]
if (claimText !== undefined && !/^\d{1,15}$/.test(claimText)) {
  console.error(`--claim takes a claim's id, a whole number (not "${claimText}")`)
  process.exit(2)
}
const config = readServerConfig()
const { db } = createDb(config)
const storage = createScreenshotStorage(config)
const started = performance.now()
try {
  await migrateToLatest(db)
  const report = await verifyEvidence({
    db,
    storage,
    evidenceKey: loadEvidenceKey({ setting: config.evidenceKey, dataDir: config.dataDir }),
    claimId: claimText === undefined ? undefined : Number(claimText),
    // the head file beside the key: a ledger that ends before it lost its newest entries
    dataDir: config.dataDir,
    onProgress: (line) => console.error(line),
  })
  for (const line of report.problems) console.log(line)
  const count = (n: number) => n.toLocaleString('en-US')
  console.log(
    `checked ${count(report.ledgerEntries)} ledger entries, ${count(report.claims)} claims, ` +
      `${count(report.amendments)} amendments, ` +
      `${count(report.intakes)} intakes, ${count(report.auditEntries)} audit entries, ` +
      `${count(report.fraudClearances)} fraud clearances, ${count(report.trustEntries)} trust entries, ` +
      `${count(report.taxForms)} W-9s ` +
      `(${count(report.purged)} purged) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      (report.problems.length === 0 ? 'all verify' : `${count(report.problems.length)} problems`),
  )
  process.exitCode = report.problems.length === 0 ? 0 : 1
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 2
} finally {
  await storage.close()
  await db.destroy()
}
