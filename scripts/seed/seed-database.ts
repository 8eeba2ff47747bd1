import fs from 'node:fs'
import path from 'node:path'
import { sql, type Insertable, type Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import { intakeAppChoices, intakeConsentTexts, type IntakeConfig } from '../../src/intake-config.ts'
import type { AgreementTemplates } from '../../server/agreements/agreement-templates.ts'
import type {
  AgreementRecordsTable,
  ClaimsTable,
  Database,
  Dialect,
  FormSubmissionsTable,
  IntakeCasesTable,
} from '../../server/db/database.ts'
import { sha256Hex } from '../../server/platform/token-hash.ts'
import { appendToLedger, subjectOf, type LedgerInput } from '../../server/evidence/ledger.ts'
import { claimRecordFromRows, intakeRecordFromRow, sealOf } from '../../server/evidence/sealed-record.ts'
import { makePng } from './png.ts'
import { makeSignaturePng, pngDataUrl } from './png.ts'
import { claimantFor, filedAt, MAX_CLAIMANTS, unit } from './claimants.ts'
import { MAX_SCORE } from '../../src/fraud-config.ts'
import {
  agreementRow,
  appForClaim,
  claimRow,
  intakeRows,
  type IntakeTexts,
  type SeedPlan,
} from './seed-rows.ts'

export interface SeedOptions {
  db: Kysely<Database>
  dialect: Dialect
  /** Where the few screenshot files are written (DATA_DIR/screenshots/…). */
  dataDir: string
  forms: Map<string, FormConfig>
  intake: IntakeConfig
  templates: AgreementTemplates
  /** Seals the seeded signings into the evidence ledger, as the server would (verify-evidence checks them). */
  evidenceKey: Buffer
  claims: number
  hotApp?: string | undefined
  hotShare?: number
  /** A signed agreement record for every claimant number divisible by this; 0 writes none. */
  agreementEvery: number
  /** Of the claims for an app the main form offers, the share whose claimant also filed an intake. */
  intakeShare?: number
  now?: number
  log?: (line: string) => void
}

export interface SeedResult {
  plan: SeedPlan
  claims: number
  perApp: Map<string, number>
  agreements: number
  intakes: number
  cases: number
  seconds: number
}

const CHUNK = 50_000
// bound parameters per statement: SQLite's default limit is 32,766, PostgreSQL's 65,535
const MAX_PARAMS: Record<Dialect, number> = { sqlite: 32_000, postgres: 65_000 }

/**
 * Fills the database with realistic claims, their signed records (a sample) and main-form intakes with
 * their cases, through kysely in large multi-row inserts, one transaction per 50,000 claims. The
 * product's triggers and indexes stay in place, so their cost is part of the time.
 */
export async function seedDatabase(options: SeedOptions): Promise<SeedResult> {
  const { db, dialect, forms, templates, claims, agreementEvery, log = () => undefined } = options
  const started = performance.now()
  const now = options.now ?? Date.now()
  if (options.hotApp && !forms.has(options.hotApp)) {
    throw new Error(`--hot-app "${options.hotApp}" is not one of forms/: ${[...forms.keys()].join(', ')}`)
  }
  const lastClaimId = await maxId(db, 'claims')
  let nextIntakeId = (await maxId(db, 'form_submissions')) + 1
  const plan: SeedPlan = {
    apps: [...forms.keys()],
    hotApp: options.hotApp,
    hotShare: options.hotShare ?? 0.9,
    personOffset: lastClaimId,
  }
  // main-form-only claimants (no Step 2 claim yet) come from the top of the claimant numbers down
  let intakeOnlyNext = MAX_CLAIMANTS - nextIntakeId
  if (plan.personOffset + claims >= intakeOnlyNext - claims) {
    throw new Error(`at most ${MAX_CLAIMANTS / 2} claims fit the seed's unique phone numbers`)
  }
  const screenshotHashes = writeScreenshotFiles(options.dataDir, plan.apps)
  const signature = pngDataUrl(makeSignaturePng())
  const intakeApps = intakeAppChoices(options.intake)
    .map((choice) => choice.value)
    .filter((app) => !options.intake.closedApps[app] && forms.has(app))
  const consents = intakeConsentTexts(options.intake)
  const texts: IntakeTexts = {
    consentVersion: options.intake.consentVersion,
    consentText: consents.main,
    communicationsConsentText: consents.communications,
  }
  const intakeShare = options.intakeShare ?? 0.3
  const perApp = new Map<string, number>()
  const totals = { agreements: 0, intakes: 0, cases: 0 }

  for (let start = 0; start < claims; start += CHUNK) {
    const claimRows: (Insertable<ClaimsTable> & { id: number })[] = []
    const agreementRows: Insertable<AgreementRecordsTable>[] = []
    const intakeRowsOut: (Insertable<FormSubmissionsTable> & { id: number })[] = []
    const caseRows: Insertable<IntakeCasesTable>[] = []
    for (let i = start; i < Math.min(claims, start + CHUNK); i++) {
      const k = plan.personOffset + i
      const app = appForClaim(plan, k)
      const claimant = claimantFor(k)
      const createdAt = filedAt({ i, n: claims, now })
      const row = claimRow({ id: lastClaimId + 1 + i, app, k, claimant, createdAt })
      row.screenshot_sha256 = screenshotHashes.get(row.screenshot_key) ?? ''
      // generated claimants are genuine by construction: they start scored, so no server starts by
      // scoring a million of them (npm run bench:fraud measures the scoring, with rings planted)
      row.fraud_score = MAX_SCORE
      claimRows.push(row)
      perApp.set(app, (perApp.get(app) ?? 0) + 1)
      if (agreementEvery > 0 && k % agreementEvery === 0) {
        const config = forms.get(app)!
        agreementRows.push(
          agreementRow({ claimId: row.id, k, config, templates, claimant, signedAt: createdAt, signature }),
        )
      }
      if (!intakeApps.includes(app) || unit(k, 20) >= intakeShare) continue
      // the main form came first, a few days before the Step 2 claim
      const intakeAt = new Date(Date.parse(createdAt) - (1 + unit(k, 21) * 20) * 86_400_000).toISOString()
      const other = intakeApps[Math.floor(unit(k, 23) * intakeApps.length)]!
      const apps = unit(k, 22) < 0.3 && other !== app ? [app, other] : [app]
      const made = intakeRows({
        id: nextIntakeId++,
        k,
        apps,
        claimant,
        createdAt: intakeAt,
        signature,
        texts,
      })
      intakeRowsOut.push(made.intake)
      caseRows.push(...made.cases)
      if (unit(k, 24) < 0.25) {
        const only = intakeOnlyNext--
        const alone = intakeRows({
          id: nextIntakeId++,
          k: only,
          apps: [intakeApps[Math.floor(unit(only, 25) * intakeApps.length)]!],
          claimant: claimantFor(only),
          createdAt: intakeAt,
          signature,
          texts,
        })
        intakeRowsOut.push(alone.intake)
        caseRows.push(...alone.cases)
      }
    }
    await db.transaction().execute(async (trx) => {
      const limit = MAX_PARAMS[dialect]
      for (const batch of batches(claimRows, limit)) await trx.insertInto('claims').values(batch).execute()
      // seeded claims share a few screenshot files by design: not duplicates for the sweeper to flag
      for (const queue of ['screenshot_checks', 'fraud_scores'] as const) {
        await trx
          .deleteFrom(queue)
          .where('claim_id', '>=', claimRows[0]!.id)
          .where('claim_id', '<=', claimRows.at(-1)!.id)
          .execute()
      }
      // rendered agreements are large (up to ~20 KB each): keep their statements a few MB
      for (const batch of batches(agreementRows, limit, 100)) {
        await trx.insertInto('agreement_records').values(batch).execute()
      }
      for (const batch of batches(intakeRowsOut, limit)) {
        await trx.insertInto('form_submissions').values(batch).execute()
      }
      for (const batch of batches(caseRows, limit))
        await trx.insertInto('intake_cases').values(batch).execute()
      await appendToLedger(trx, options.evidenceKey, seals(claimRows, agreementRows, intakeRowsOut))
    })
    totals.agreements += agreementRows.length
    totals.intakes += intakeRowsOut.length
    totals.cases += caseRows.length
    const done = Math.min(claims, start + CHUNK)
    log(`  ${done.toLocaleString('en-US')} / ${claims.toLocaleString('en-US')} claims, ${seconds(started)} s`)
  }
  await finish(db, dialect)
  return { plan, claims, perApp, ...totals, seconds: Number(seconds(started)) }
}

/** Rows split so that no statement binds more than `maxParams` values (or holds more than `maxRows` rows). */
function* batches<T extends object>(rows: T[], maxParams: number, maxRows = Infinity): Generator<T[]> {
  if (rows.length === 0) return
  const size = Math.max(1, Math.min(maxRows, Math.floor(maxParams / Object.keys(rows[0]!).length)))
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size)
}

async function maxId(db: Kysely<Database>, table: 'claims' | 'form_submissions'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst()
  return Number(row?.max ?? 0)
}

/**
 * PostgreSQL: move the id sequences past the ids written here, and give the planner its statistics
 * (what autovacuum does on its own a little later in production). SQLite: fold the WAL into the file.
 */
async function finish(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    for (const table of ['claims', 'form_submissions']) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${sql.table(table)}), false)`.execute(
        db,
      )
    }
    await sql`VACUUM ANALYZE`.execute(db)
    return
  }
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)
}

/** Three small real PNGs per app, written once; seeded claims point at them in turn. Their hashes by key. */
function writeScreenshotFiles(dataDir: string, apps: string[]): Map<string, string> {
  const hashes = new Map<string, string>()
  for (const app of apps) {
    const dir = path.join(dataDir, 'screenshots', `${app}-screenshots`)
    fs.mkdirSync(dir, { recursive: true })
    for (let n = 0; n < 3; n++) {
      const file = path.join(dir, `seed-${n}.png`)
      if (!fs.existsSync(file)) fs.writeFileSync(file, makePng({ width: 240 + n * 40, height: 420 + n * 60 }))
      hashes.set(`${app}-screenshots/seed-${n}.png`, sha256Hex(fs.readFileSync(file)))
    }
  }
  return hashes
}

/** The ledger entries sealing a chunk's signed claims and its intakes, as the server writes them. */
function seals(
  claims: (Insertable<ClaimsTable> & { id: number })[],
  agreements: Insertable<AgreementRecordsTable>[],
  intakes: (Insertable<FormSubmissionsTable> & { id: number })[],
): LedgerInput[] {
  const byId = new Map(claims.map((claim) => [claim.id, claim]))
  const signed = agreements.map((record) => {
    const claim = { locale: 'en', screenshot_sha256: '', ...byId.get(record.claim_id)! }
    const stored = {
      locale: 'en',
      signature_method: 'drawn' as const,
      typed_signature: null,
      adopted_from: null,
      ...record,
    }
    return {
      kind: 'claim' as const,
      subject: subjectOf('claim', claim.id),
      seal: sealOf(claimRecordFromRows(claim, stored)),
    }
  })
  const filed = intakes.map((intake) => ({
    kind: 'intake' as const,
    subject: subjectOf('intake', intake.id),
    seal: sealOf(
      intakeRecordFromRow({
        locale: 'en',
        agreement_template: '',
        agreement_template_version: '',
        agreement_html: '',
        ip_address: '',
        user_agent: '',
        signature_method: 'drawn',
        typed_signature: null,
        ...intake,
      } as Parameters<typeof intakeRecordFromRow>[0]),
    ),
  }))
  return [...signed, ...filed]
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1)
}
