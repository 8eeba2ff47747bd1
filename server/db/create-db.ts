import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type SqliteDatabase } from 'kysely'
import pg from 'pg'
import type { Database, DatabaseHandle } from './database.ts'
import { makePrivateFolder, touchPrivateFile } from '../private-files.ts'

export const SQLITE_FILE_NAME = 'claims.db'

// bigint ids (int8) come back from pg as strings; ours stay far below 2^53, so read them as numbers
pg.types.setTypeParser(pg.types.builtins.INT8, Number)

/**
 * The longest one statement of the server may run on PostgreSQL. Every query behind a request takes
 * milliseconds; one stuck behind a lock or a runaway plan is cancelled (57014, answered 503) instead of
 * holding a connection of the pool, and with it a claim, for ever. Work that may rightly take longer
 * runs without it: migrations (migrate.ts) and the bench's seed; a statement that streams a long
 * result to a slow client (COPY … TO STDOUT) sets its own with SET LOCAL statement_timeout.
 */
export const STATEMENT_TIMEOUT_MS = 30_000
/** How long a request waits for a connection (the pool full, or the server unreachable) before its 503. */
const CONNECT_TIMEOUT_MS = 5_000
const POOL_SIZE = 10

/** PostgreSQL when databaseUrl is set, else a SQLite file (WAL mode) in dataDir. */
export function createDb({
  databaseUrl,
  dataDir,
  statementTimeoutMs = STATEMENT_TIMEOUT_MS,
}: {
  databaseUrl?: string | undefined
  dataDir: string
  /** PostgreSQL only: 0 for none. */
  statementTimeoutMs?: number
}): DatabaseHandle {
  if (databaseUrl) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // sent with the connection's start-up message: no extra round trip
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    })
    // an idle connection closed by the server (restart, failover, admin) must not crash the process:
    // the pool drops that client and the next query opens a new one. The driver's code and message
    // name the failure only, never a row's data.
    pool.on('error', (error: Error & { code?: unknown }) => {
      console.error(
        `postgres: an idle connection failed and was dropped (${String(error.code ?? 'no code')}: ${error.message})`,
      )
    })
    // the pool listens for errors on idle clients only: a connection lost while a request holds it
    // would otherwise throw from the client as an unhandled 'error' event and end the process. The
    // request's own query fails with the same error and answers 503; nothing more to do here.
    pool.on('connect', (client) => client.on('error', () => undefined))
    // kysely asks the pool for a client per query or transaction: each comes with its statements named
    const namingPool = {
      connect: async () => nameStatements(await pool.connect()),
      end: () => pool.end(),
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool }) })
    postgresDatabases.set(db, { databaseUrl, isLimited: statementTimeoutMs > 0, pool })
    return { db, dialect: 'postgres' }
  }
  makePrivateFolder(dataDir)
  touchPrivateFile(path.join(dataDir, SQLITE_FILE_NAME))
  const sqlite = new SQLite(path.join(dataDir, SQLITE_FILE_NAME))
  sqlite.pragma('journal_mode = WAL')
  // NORMAL in WAL mode loses nothing when the process dies; only a power cut can drop the last commits
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  // statement journals (a statement that may need undoing inside a transaction) in memory, not in temp files
  sqlite.pragma('temp_store = MEMORY')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  sqliteDatabases.set(db, { sqlite, valueStatements: new Map() })
  return { db, dialect: 'sqlite' }
}

const sqliteDatabases = new WeakMap<
  Kysely<Database>,
  { sqlite: SQLite.Database; valueStatements: Map<string, SQLite.Statement> }
>()

/**
 * A query's rows on SQLite as arrays of their columns' values, in the order it selects them
 * (better-sqlite3's raw mode): for reads of thousands of rows, where building an object a row costs as
 * much as the query itself (the CSV export). Its statements are kept apart from kysely's, which read
 * objects.
 */
export function sqliteValueRows<Values extends unknown[]>(
  db: Kysely<Database>,
  query: CompiledQuery,
): Values[] {
  const known = sqliteDatabases.get(db)
  if (!known) throw new Error('not a SQLite database made by createDb')
  let statement = known.valueStatements.get(query.sql)
  if (statement === undefined) {
    statement = known.sqlite.prepare(query.sql).raw(true)
    if (known.valueStatements.size >= STATEMENT_CACHE_SIZE) {
      known.valueStatements.delete(known.valueStatements.keys().next().value!)
    }
    known.valueStatements.set(query.sql, statement)
  }
  return statement.all(...query.parameters) as Values[]
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

/** PostgreSQL: SQL texts run as named prepared statements, each with its name. */
const statementNames = new Map<string, string>()
const namedClients = new WeakSet<pg.PoolClient>()

/**
 * Runs this SQL text, on PostgreSQL, as a named prepared statement: each connection parses and plans it
 * once, then only binds each run's values. For the few statements every claim runs, whose plans do not
 * depend on their values (a generic plan serves as well as a fresh one); a statement whose best plan
 * depends on its values (an app of a million claims against one of a thousand) must stay unnamed.
 */
export function prepareByName(sqlText: string): void {
  if (!statementNames.has(sqlText)) statementNames.set(sqlText, `claims_intake_${statementNames.size + 1}`)
}

/** The client, its query() running the SQL texts given to prepareByName as named statements. */
function nameStatements(client: pg.PoolClient): pg.PoolClient {
  if (namedClients.has(client)) return client
  namedClients.add(client)
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((text: unknown, values: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' && Array.isArray(values) ? statementNames.get(text) : undefined
    return name ? query({ name, text, values }, ...rest) : query(text, values, ...rest)
  }) as typeof client.query
  return client
}

const postgresDatabases = new WeakMap<
  Kysely<Database>,
  { databaseUrl: string; isLimited: boolean; pool: pg.Pool }
>()

/**
 * A connection of the database's own pool, for what kysely cannot say (COPY's streams); the caller
 * releases it, with release(true) when it leaves the connection in a state the pool must not reuse.
 */
export async function connectPostgres(db: Kysely<Database>): Promise<pg.PoolClient> {
  const known = postgresDatabases.get(db)
  if (!known) throw new Error('not a PostgreSQL database made by createDb')
  return known.pool.connect()
}

/**
 * Runs `work` on a database without the statement timeout: `db` itself on SQLite or when it has none,
 * else a connection of its own to the same PostgreSQL database, closed after. For work that may rightly
 * run for minutes, such as a migration building an index over a million claims.
 */
export async function withoutStatementTimeout<T>(
  db: Kysely<Database>,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const known = postgresDatabases.get(db)
  if (!known?.isLimited) return work(db)
  const { db: unlimited } = createDb({ databaseUrl: known.databaseUrl, dataDir: '', statementTimeoutMs: 0 })
  try {
    return await work(unlimited)
  } finally {
    await unlimited.destroy()
  }
}

/** True when the error is a unique-index violation, in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505'
}
