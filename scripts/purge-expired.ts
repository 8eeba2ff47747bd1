import { FIRM_SETTINGS } from '../src/firm-settings.ts'
import { readServerConfig } from '../server/config.ts'
import { createDb } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { asOwner } from '../server/db/server-role.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { purgeExpired } from '../server/ops/purge-expired.ts'
import { createScreenshotStorage } from '../server/uploads/create-screenshot-storage.ts'

// npm run purge-expired [-- --dry-run]: delete what was signed before firm.json's retention, except legal
// holds; exits 1 naming each record kept because its rows no longer match its seal
const dryRun = process.argv.includes('--dry-run')
const config = readServerConfig()
// the owner's connection when DATABASE_OWNER_URL is set: the server's own role may not delete sealed records
const { db } = createDb(asOwner(config))
// the store the server uses: the S3 bucket when S3_BUCKET is set, else DATA_DIR/screenshots
const storage = createScreenshotStorage(config)
try {
  await migrateToLatest(db)
  const result = await purgeExpired({
    db,
    storage,
    // the server's key: the purge entries it writes into the evidence ledger verify with it
    evidenceKey: loadEvidenceKey({ setting: config.evidenceKey, dataDir: config.dataDir }),
    retentionYears: FIRM_SETTINGS.retentionYears,
    dryRun,
  })
  // ids, apps and dates only: no claimant's personal data on the terminal
  for (const item of result.candidates) console.log(`${item.kind}\t${item.id}\t${item.app}\t${item.signedAt}`)
  console.log(
    dryRun
      ? `dry run: ${result.candidates.length} records signed before ${result.cutoff} would be deleted`
      : `deleted ${result.deletedClaims} claims (${result.removedFiles} screenshots) and ${result.deletedIntakes} intakes signed before ${result.cutoff}`,
  )
  if (result.keptScreenshots > 0) {
    console.log(
      `${result.keptScreenshots} expired claims kept with their screenshots: the file does not match its sealed hash or cannot be read`,
    )
  }
  // a record kept because it fails its seal is evidence tampering until shown otherwise: exit 1
  for (const line of result.problems) console.log(line)
  if (result.problems.length > 0) {
    console.log(`${result.problems.length} records kept that need looking into (npm run verify-evidence)`)
    process.exitCode = 1
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await storage.close()
  await db.destroy()
}
