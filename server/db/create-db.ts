import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely'
import pg from 'pg'
import type { Database, DatabaseHandle } from './database.ts'

export const SQLITE_FILE_NAME = 'claims.db'

// bigint ids (int8) come back from pg as strings; ours stay far below 2^53, so read them as numbers
pg.types.setTypeParser(pg.types.builtins.INT8, Number)

/** PostgreSQL when databaseUrl is set, else a SQLite file (WAL mode) in dataDir. */
export function createDb({
  databaseUrl,
  dataDir,
}: {
  databaseUrl?: string | undefined
  dataDir: string
}): DatabaseHandle {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    // an idle connection closed by the server (restart, failover, admin) must not crash the process:
    // the pool drops that client and the next query opens a new one
    pool.on('error', () => undefined)
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' }
  }
  fs.mkdirSync(dataDir, { recursive: true })
  const sqlite = new SQLite(path.join(dataDir, SQLITE_FILE_NAME))
  sqlite.pragma('journal_mode = WAL')
  // NORMAL in WAL mode loses nothing when the process dies; only a power cut can drop the last commits
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  // statement journals (a statement that may need undoing inside a transaction) in memory, not in temp files
  sqlite.pragma('temp_store = MEMORY')
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
  }
}

const STATEMENT_CACHE_SIZE = 256

/**
 * The SQLite connection as kysely sees it, keeping its prepared statements by SQL text: kysely asks for a
 * new one for every query, and preparing costs more than running most of ours. better-sqlite3 runs a
 * statement to its end before it returns, so one statement serves every request in turn (nothing here
 * streams a query). The oldest statement goes when the cache is full (the seed's bulk inserts vary).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql)
      if (statement === undefined) {
        statement = sqlite.prepare(sql)
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!)
        statements.set(sql, statement)
      }
      return statement
    },
  }
}

/** True when the error is a unique-index violation, in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505'
}
