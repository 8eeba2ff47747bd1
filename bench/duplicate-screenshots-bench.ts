import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { createDb, SQLITE_FILE_NAME } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { hashBands, NEAR_DISTANCE } from '../server/duplicates/screenshot-bands.ts'
import { fingerprintScreenshot, HASH_BITS } from '../server/duplicates/screenshot-fingerprint.ts'
import { findMatches } from '../server/duplicates/screenshot-matches.repository.ts'
import { flaggedPage } from '../server/dashboard/flagged-claims.ts'
import { bankScreenshot, encodeJpegImage, encodePngImage } from '../tests/server/support/bank-screenshots.ts'

// npm run bench:duplicates -- [--claims N] [--queries N] [--spread F] [--keep]: the cost of fingerprinting a phone
// screenshot (PNG and JPEG of about 1 MB), then, on SQLite with N claims' hashes (1,000,000 by default)
// in the table, the time to match one new claim against them, and a page of the Flagged filter.
const { values } = parseArgs({
  options: {
    claims: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '200' },
    spread: { type: 'string', default: '0.07' },
    keep: { type: 'boolean', default: false },
  },
})
const claims = Number(values.claims)
const queries = Number(values.queries)
if (!Number.isInteger(claims) || claims < 1000) throw new Error('--claims takes a whole number, 1000 or more')
// bank app layouts: each claim's hash is its app's layout hash with each bit flipped at --spread, as two
// claimants' screenshots of one app differ. The tests' drawings (same layout, other figures and rows)
// are 16 to 30 bits apart: 0.07 puts two claims of an app about 17 apart (the hardest case for the
// index), 0.15 about 33
const LAYOUTS = 8
const CLAIM_FLIP = Number(values.spread)
const CROP_FLIP = 0.06
const FLAGGED_SHARE = 0.01

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!
const percentile = (times: number[], p: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))]!
const count = (n: number) => n.toLocaleString('en-US')

console.log('fingerprinting (decode, shrink, the coarse and fine DCT hashes), in this thread:')
const picture = bankScreenshot({ seed: 7, width: 1170, height: 2532, photo: true })
for (const [label, bytes] of [
  ['PNG', encodePngImage(picture)],
  ['JPEG (quality 92)', encodeJpegImage(picture, 92)],
] as const) {
  const times: number[] = []
  for (let i = 0; i < 7; i++) {
    const started = performance.now()
    fingerprintScreenshot(bytes)
    times.push(performance.now() - started)
  }
  console.log(
    `  ${label}, 1170 × 2532, ${(bytes.length / 1e6).toFixed(2)} MB: median ${median(times).toFixed(0)} ms (of 7)`,
  )
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-duplicates-bench-'))
try {
  const { db } = createDb({ dataDir })
  await migrateToLatest(db as Kysely<unknown>)
  const started = performance.now()
  const random = seeded(1)
  const layouts = Array.from({ length: LAYOUTS }, () => randomHash(random, 0.5, 0n))
  const hashOf = new Array<string>(claims)
  fillTables({ file: path.join(dataDir, SQLITE_FILE_NAME), random, layouts, hashOf })
  console.log(
    `\n${count(claims)} claims, ${count(claims * 5)} hash rows written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  )

  const times: number[] = []
  let found = 0
  for (let q = 0; q < queries; q++) {
    // a re-compressed copy of a random claim's screenshot: two bits of its hash flipped
    const source = 1 + Math.floor(random() * claims)
    const copy = flipBits(hashOf[source - 1]!, random, 2 / HASH_BITS)
    const hashes = [copy, ...Array.from({ length: 4 }, () => flipBits(copy, random, CROP_FLIP))]
    const began = performance.now()
    const matches = await findMatches(db, {
      claim: {
        id: claims + 1 + q,
        screenshotKey: '',
        screenshotSha256: '',
        phoneNumber: `(999) 000-${q}`,
        email: `query${q}@bench.test`,
      },
      fingerprint: { sha256: crypto.randomBytes(32).toString('hex'), perceptualHashes: hashes },
    })
    times.push(performance.now() - began)
    if (matches.some(({ otherClaimId }) => otherClaimId === source)) found++
  }
  console.log(
    `matching one claim (spread ${CLAIM_FLIP}; ${queries} copies of random claims, near distance ${NEAR_DISTANCE}): median ${median(times).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms; source found ${found} of ${queries}`,
  )

  const pageTimes: number[] = []
  let flaggedCount = 0
  for (let i = 0; i < 5; i++) {
    const began = performance.now()
    const page = await flaggedPage(db, {
      app: 'brigit',
      where: undefined,
      apps: 'every',
      order: 'newest',
      offset: 0,
      pageSize: 50,
    })
    pageTimes.push(performance.now() - began)
    flaggedCount = page.count
  }
  console.log(
    `Flagged filter, first page of brigit (${count(flaggedCount)} flagged of its claims, ${FLAGGED_SHARE * 100} % of all flagged): median ${median(pageTimes).toFixed(1)} ms (of 5)`,
  )
  await db.destroy()
} finally {
  if (values.keep) console.log(`kept ${dataDir}`)
  else fs.rmSync(dataDir, { recursive: true, force: true })
}

/**
 * Claims (straight rows: the claims' own triggers, search index and stats are not what is measured here,
 * so they are dropped first), each with five hashes and their bands, and FLAGGED_SHARE of them matched
 * in pairs.
 */
function fillTables({
  file,
  random,
  layouts,
  hashOf,
}: {
  file: string
  random: () => number
  layouts: string[]
  hashOf: string[]
}) {
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = OFF')
  for (const { name } of sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'claims'")
    .all() as { name: string }[]) {
    sqlite.exec(`DROP TRIGGER ${name}`)
  }
  const apps = ['brigit', 'cleo', 'earnin', 'dailypay', 'albert', 'chime', 'empower', 'floatme']
  const insertClaim = sqlite.prepare(`
    INSERT INTO claims (id, app, created_at, first_name, last_name, email, phone_number, cash_advance_count,
      membership_months, screenshot_key, screenshot_type)
    VALUES (?, ?, ?, 'Bench', 'Claimant', ?, ?, 1, 1, 'x.png', 'image/png')`)
  const insertBand = sqlite.prepare(`
    INSERT INTO screenshot_hash_bands (claim_id, variant, hash, band0, band1, band2, band3, band4, band5)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const insertMatch = sqlite.prepare(
    `INSERT INTO screenshot_matches (claim_id, other_claim_id, kind, distance) VALUES (?, ?, 'near', 4)`,
  )
  const start = Date.parse('2026-01-01T00:00:00Z')
  const chunk = 20_000
  for (let first = 1; first <= claims; first += chunk) {
    sqlite.transaction(() => {
      for (let id = first; id < Math.min(claims + 1, first + chunk); id++) {
        const layout = layouts[id % layouts.length]!
        insertClaim.run(
          id,
          apps[id % apps.length],
          new Date(start + id * 1000).toISOString(),
          `c${id}@bench.test`,
          `(${String(id).padStart(10, '0')})`,
        )
        const hash = flipBits(layout, random, CLAIM_FLIP)
        hashOf[id - 1] = hash
        const variants = [hash, ...Array.from({ length: 4 }, () => flipBits(hash, random, CROP_FLIP))]
        for (const [variant, value] of variants.entries())
          insertBand.run(id, variant, value, ...hashBands(value))
        if (id % 2 === 0 && random() < FLAGGED_SHARE) {
          insertMatch.run(id, id - 1)
          insertMatch.run(id - 1, id)
        }
      }
    })()
    if ((first - 1) % 200_000 === 0) console.log(`  ${count(first - 1)} claims written`)
  }
  sqlite.exec('ANALYZE')
  sqlite.close()
}

function randomHash(random: () => number, share: number, base: bigint): string {
  let bits = base
  for (let bit = 0; bit < HASH_BITS; bit++) if (random() < share) bits ^= 1n << BigInt(bit)
  return bits.toString(16).padStart(HASH_BITS / 4, '0')
}

function flipBits(hex: string, random: () => number, share: number): string {
  return randomHash(random, share, BigInt(`0x${hex}`))
}

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}
