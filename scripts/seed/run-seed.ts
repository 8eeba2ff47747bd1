import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import { loadAgreementTemplates } from '../../server/agreements/agreement-templates.ts'
import { createDb } from '../../server/db/create-db.ts'
import type { Database } from '../../server/db/database.ts'
import { migrateToLatest } from '../../server/db/migrate.ts'
import { loadEvidenceKey } from '../../server/evidence/evidence-key.ts'
import { loadFormConfigs } from '../../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../../server/forms/load-intake-config.ts'
import { seedDatabase, type SeedResult } from './seed-database.ts'

export const DEMO_CLAIMS = 2_000
/** Up to this many claims, every claim gets its signed record; above it, one claimant in 100. */
const ALL_AGREEMENTS_UP_TO = 10_000

export interface RunSeedOptions {
  claims: number
  dataDir: string
  databaseUrl?: string | undefined
  formsDir?: string
  hotApp?: string | undefined
  hotShare?: number | undefined
  agreementEvery?: number | undefined
  log?: (line: string) => void
}

/** Opens the database the server would (same createDb), migrates it, seeds it and closes it. */
export async function runSeed(options: RunSeedOptions): Promise<SeedResult> {
  const log = options.log ?? ((line: string) => console.log(line))
  const formsDir = path.resolve(options.formsDir ?? 'forms')
  const templates = loadAgreementTemplates()
  const forms = loadFormConfigs(formsDir, { agreementTemplates: templates })
  const intake = loadIntakeConfig(formsDir)
  // bulk inserts of 65,000 rows and a VACUUM ANALYZE of the whole database: no statement timeout
  const { db, dialect } = createDb({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    statementTimeoutMs: 0,
  })
  try {
    // a bigger page cache for this one connection only: the FTS5 index merges touch many pages
    if (dialect === 'sqlite') await sql`PRAGMA cache_size = -262144`.execute(db)
    await migrateToLatest(db)
    const agreementEvery = options.agreementEvery ?? (options.claims <= ALL_AGREEMENTS_UP_TO ? 1 : 100)
    log(
      `seeding ${options.claims.toLocaleString('en-US')} claims into ${dialect === 'postgres' ? 'PostgreSQL' : path.join(options.dataDir, 'claims.db')}` +
        (options.hotApp ? ` (${Math.round((options.hotShare ?? 0.9) * 100)} % for ${options.hotApp})` : '') +
        `, a signed record for ${agreementEvery === 1 ? 'every claim' : agreementEvery === 0 ? 'no claim' : `1 claim in ${agreementEvery}`}`,
    )
    const seeded = await seedDatabase({
      db,
      dialect,
      dataDir: options.dataDir,
      forms,
      intake,
      templates,
      evidenceKey: loadEvidenceKey({
        setting: process.env.EVIDENCE_KEY?.trim() || undefined,
        dataDir: options.dataDir,
      }),
      claims: options.claims,
      hotApp: options.hotApp,
      ...(options.hotShare === undefined ? {} : { hotShare: options.hotShare }),
      agreementEvery,
      log,
    })
    // counted in the seed's time: the index is part of what the seed builds
    const mergeSeconds = dialect === 'sqlite' ? await mergeSearchIndex(db, log) : 0
    const result = { ...seeded, seconds: seeded.seconds + mergeSeconds }
    const apps = [...result.perApp.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([app, count]) => `${app} ${count.toLocaleString('en-US')}`)
    log(
      `seeded ${result.claims.toLocaleString('en-US')} claims in ${result.seconds.toFixed(1)} s ` +
        `(${Math.round(result.claims / result.seconds).toLocaleString('en-US')} claims/s): ${apps.join(', ')}`,
    )
    log(
      `  + ${result.agreements.toLocaleString('en-US')} signed agreement records, ` +
        `${result.intakes.toLocaleString('en-US')} main-form intakes with ${result.cases.toLocaleString('en-US')} cases`,
    )
    return result
  } finally {
    await db.destroy()
  }
}

/**
 * The search index as a server left quiet would have it: the server's checkpointer thread merges it in
 * the quiet moments between claims (levels of 4 or more segments), here run until nothing is left.
 */
async function mergeSearchIndex(db: Kysely<Database>, log: (line: string) => void): Promise<number> {
  const started = performance.now()
  const totalChanges = async () =>
    Number((await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n)
  for (;;) {
    const before = await totalChanges()
    await sql`INSERT INTO claims_search (claims_search, rank) VALUES ('merge', 5000)`.execute(db)
    if ((await totalChanges()) - before < 2) break
  }
  const seconds = (performance.now() - started) / 1000
  log(`merged the search index in ${seconds.toFixed(1)} s`)
  return seconds
}
