import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { SQLITE_FILE_NAME } from '../db/create-db.ts'
import { makePrivateFolder, PRIVATE_FILE_MODE, touchPrivateFile } from '../private-files.ts'

const SCREENSHOTS = 'screenshots'
const FILES_TABLE = 'backup_files'

export interface BackupCounts {
  claims: number
  intakes: number
  files: number
}

/**
 * One file holding an online copy of the SQLite database (consistent while the server keeps writing)
 * plus every screenshot, in a `backup_files` table. The database is copied
 * first, then the files: a screenshot is written before its row, so every row in the copy has its file.
 */
export function backupDataDir({ dataDir, file }: { dataDir: string; file: string }): BackupCounts {
  const source = path.join(dataDir, SQLITE_FILE_NAME)
  if (!fs.existsSync(source)) throw new Error(`no database at ${source}: is DATA_DIR right?`)
  if (fs.existsSync(file)) throw new Error(`${file} exists already: choose a new backup file`)
  const partial = `${file}.partial`
  fs.rmSync(partial, { force: true })
  touchPrivateFile(partial)
  // VACUUM INTO reads one consistent snapshot (a WAL read transaction) while the server keeps writing
  const live = new SQLite(source, { fileMustExist: true })
  try {
    live.pragma('busy_timeout = 5000')
    live.prepare('VACUUM INTO ?').run(partial)
  } finally {
    live.close()
  }
  const copy = new SQLite(partial)
  try {
    copy.exec(`CREATE TABLE ${FILES_TABLE} (key TEXT PRIMARY KEY, bytes BLOB NOT NULL)`)
    const insert = copy.prepare(`INSERT INTO ${FILES_TABLE} (key, bytes) VALUES (?, ?)`)
    const keys = listFiles(path.join(dataDir, SCREENSHOTS))
    const insertBatch = copy.transaction((batch: string[]) => {
      for (const key of batch) insert.run(key, fs.readFileSync(path.join(dataDir, SCREENSHOTS, key)))
    })
    for (let start = 0; start < keys.length; start += 200) insertBatch(keys.slice(start, start + 200))
    const counts = countRows(copy)
    copy.close()
    fs.renameSync(partial, file)
    return counts
  } catch (error) {
    copy.close()
    fs.rmSync(partial, { force: true })
    throw error
  }
}

/** Restores a backup into an empty DATA_DIR: the database and the screenshots. Never overwrites. */
export function restoreBackup({ file, dataDir }: { file: string; dataDir: string }): BackupCounts {
  const target = path.join(dataDir, SQLITE_FILE_NAME)
  if (fs.existsSync(target)) throw new Error(`${target} exists: restore into an empty DATA_DIR`)
  makePrivateFolder(dataDir)
  const backup = new SQLite(file, { readonly: true, fileMustExist: true })
  try {
    for (const row of backup.prepare(`SELECT key, bytes FROM ${FILES_TABLE}`).iterate() as Iterable<{
      key: string
      bytes: Buffer
    }>) {
      const destination = path.resolve(dataDir, SCREENSHOTS, row.key)
      if (!destination.startsWith(path.resolve(dataDir, SCREENSHOTS) + path.sep)) {
        throw new Error(`backup holds a file outside screenshots/: ${row.key}`)
      }
      makePrivateFolder(path.dirname(destination))
      fs.writeFileSync(destination, row.bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE })
    }
    touchPrivateFile(target)
    backup.prepare('VACUUM INTO ?').run(target)
  } finally {
    backup.close()
  }
  const restored = new SQLite(target)
  try {
    restored.exec(`DROP TABLE ${FILES_TABLE}`)
    restored.pragma('journal_mode = WAL')
    return { ...countRows(restored), files: listFiles(path.join(dataDir, SCREENSHOTS)).length }
  } finally {
    restored.close()
  }
}

function countRows(db: SQLite.Database): BackupCounts {
  // a database from an older release may lack a table: it counts as empty
  const count = (table: string) =>
    db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table) === undefined
      ? 0
      : Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)
  return { claims: count('claims'), intakes: count('form_submissions'), files: count(FILES_TABLE) }
}

function listFiles(root: string, prefix = ''): string[] {
  if (!fs.existsSync(path.join(root, prefix))) return []
  return fs
    .readdirSync(path.join(root, prefix), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(root, path.join(prefix, entry.name))
        : entry.isFile()
          ? [path.join(prefix, entry.name)]
          : [],
    )
}
