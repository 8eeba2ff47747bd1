import path from 'node:path'
import { readServerConfig } from '../server/config.ts'
import { backupDataDir, restoreBackup } from '../server/ops/backup.ts'

// npm run backup -- FILE            copy DATA_DIR's database and screenshots into FILE, while the server runs
// npm run backup -- --restore FILE  restore FILE into DATA_DIR (which must not hold a database yet)
const args = process.argv.slice(2)
const restore = args[0] === '--restore'
const file = restore ? args[1] : args[0]
try {
  const config = readServerConfig()
  if (config.databaseUrl) {
    throw new Error(
      "backup covers the SQLite store; for PostgreSQL use pg_dump (or your provider's snapshots) and back up the screenshots apart",
    )
  }
  if (!file) throw new Error('usage: npm run backup -- FILE  |  npm run backup -- --restore FILE')
  const target = path.resolve(file)
  const counts = restore
    ? restoreBackup({ file: target, dataDir: config.dataDir })
    : backupDataDir({ dataDir: config.dataDir, file: target })
  console.log(
    `${restore ? 'restored' : 'backed up'} ${counts.claims} claims, ${counts.intakes} intakes, ` +
      `${counts.files} screenshots ${restore ? `into ${config.dataDir}` : `to ${target}`}`,
  )
  if (config.s3) {
    // the bucket is not in the file: S3's own versioning or replication keeps its copies
    console.log(
      `screenshots are in the bucket "${config.s3.bucket}", not in this backup: keep them with bucket versioning or replication`,
    )
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
