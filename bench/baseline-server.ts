import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import express from 'express'
import multer from 'multer'
import pg from 'pg'

/**
 * The bare handler the submission benchmark compares the product with: Express 5, multer in memory,
 * the file written with fsync and its folder synced, one insert. No validation, no agreement, no
 * logging: the floor of what a claim costs. The insert goes to better-sqlite3 with the product's
 * durability (WAL, synchronous=NORMAL), or, when DATABASE_URL is set, to that PostgreSQL database
 * through a pg Pool of the product's size, as one autocommitted INSERT on the server the product uses
 * (so with the same synchronous_commit).
 */
const dataDir = path.resolve(process.env.DATA_DIR ?? 'baseline-data')
const screenshots = path.join(dataDir, 'screenshots')
fs.mkdirSync(screenshots, { recursive: true })

type ClaimValues = [string, string, ...(string | number | undefined)[]]
/** Stores one claim's row; resolves with its id. */
const insertClaim: (values: ClaimValues) => number | Promise<number> = process.env.DATABASE_URL
  ? await openPostgres(process.env.DATABASE_URL)
  : openSqlite()

function openSqlite() {
  const sqlite = new SQLite(path.join(dataDir, 'baseline.db'))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.exec(`
    CREATE TABLE IF NOT EXISTS claims (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      app TEXT NOT NULL, created_at TEXT NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
      email TEXT NOT NULL, phone_number TEXT NOT NULL, cash_advance_count INTEGER NOT NULL,
      membership_months INTEGER NOT NULL, screenshot_key TEXT NOT NULL, signature TEXT NOT NULL
    )`)
  const insert = sqlite.prepare(`
    INSERT INTO claims (app, created_at, first_name, last_name, email, phone_number, cash_advance_count,
      membership_months, screenshot_key, signature)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  return (values: ClaimValues) => Number(insert.run(...values).lastInsertRowid)
}

async function openPostgres(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
  pool.on('error', (error) => console.error(`baseline: an idle connection failed: ${error.message}`))
  await pool.query(`
    CREATE TABLE IF NOT EXISTS claims (
      id BIGSERIAL PRIMARY KEY,
      app TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
      email TEXT NOT NULL, phone_number TEXT NOT NULL, cash_advance_count INTEGER NOT NULL,
      membership_months INTEGER NOT NULL, screenshot_key TEXT NOT NULL, signature TEXT NOT NULL
    )`)
  // a named statement: parsed once per connection, as a server that cares would
  const insert = {
    name: 'baseline-insert-claim',
    text: `
      INSERT INTO claims (app, created_at, first_name, last_name, email, phone_number, cash_advance_count,
        membership_months, screenshot_key, signature)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
  }
  return async (values: ClaimValues) => {
    const { rows } = await pool.query<{ id: string }>({ ...insert, values })
    return Number(rows[0]!.id)
  }
}

const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 10 * 1024 * 1024 } })
const app = express()

app.get('/ready', (_req, res) => {
  res.json({ ready: true })
})

app.post('/api/forms/:slug/submissions', upload.single('screenshot'), async (req, res) => {
  const data = JSON.parse(String(req.body?.data ?? '{}')) as Record<string, string | number>
  const key = `${Date.now()}-${crypto.randomBytes(8).toString('hex')}.png`
  const handle = await fs.promises.open(path.join(screenshots, key), 'wx')
  try {
    await handle.writeFile(req.file?.buffer ?? Buffer.alloc(0))
    await handle.sync()
  } finally {
    await handle.close()
  }
  // the new name is durable only once its folder is synced too (the product does the same)
  const folder = await fs.promises.open(screenshots, 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
  const createdAt = new Date().toISOString()
  const id = await insertClaim([
    String(req.params.slug),
    createdAt,
    data.firstName,
    data.lastName,
    data.email,
    data.phoneNumber,
    data.cashAdvanceCount,
    data.membershipMonths,
    key,
    data.signature,
  ])
  res.status(201).json({ id, createdAt })
})

const port = Number(process.env.PORT ?? 3100)
const host = process.env.HOST ?? '127.0.0.1'
const server = app.listen(port, host, () => console.log(`baseline listening on http://${host}:${port}`))
const stop = () => server.close(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
