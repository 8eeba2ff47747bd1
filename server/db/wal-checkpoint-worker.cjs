// The WAL checkpointer's thread (started by wal-checkpointer.ts). Plain CommonJS so that it loads the same
// under `node --import tsx`, vitest and plain node: it only needs better-sqlite3.
const { parentPort, workerData } = require('node:worker_threads')
const SQLite = require(workerData.driver)

// how long no other connection may have written before the search index is merged, and how many pages
// one merge step may write (a few milliseconds holding the write lock)
const QUIET_MS = 1000
const MERGE_PAGES = 100

const sqlite = new SQLite(workerData.file)
sqlite.pragma('journal_mode = WAL')
sqlite.pragma('synchronous = NORMAL')

// PASSIVE: copies what it can without waiting for (or holding up) the server's readers and writers
const checkpoint = sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)')
// changes whenever another connection (the server) commits
const dataVersion = sqlite.prepare('PRAGMA data_version').pluck()
const totalChanges = sqlite.prepare('SELECT total_changes()').pluck()
// the search index's merges are put off while claims come in (migration 1900) and done here once the
// server is quiet: FTS5's 'merge' merges levels that hold 4 or more segments, MERGE_PAGES pages at a time
const hasSearchIndex = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'claims_search'").get()
const mergeStep = hasSearchIndex
  ? sqlite.prepare(`INSERT INTO claims_search (claims_search, rank) VALUES ('merge', ${MERGE_PAGES})`)
  : undefined

let seenVersion = dataVersion.get()
let quietSince = Date.now()
let merged = false

function mergeWhenQuiet() {
  const version = dataVersion.get()
  if (version !== seenVersion) {
    seenVersion = version
    quietSince = Date.now()
    merged = false
    return
  }
  if (!mergeStep || merged || Date.now() - quietSince < QUIET_MS) return
  const before = totalChanges.get()
  try {
    mergeStep.run()
  } catch (error) {
    if (String(error && error.code).startsWith('SQLITE_BUSY')) return // the server is writing: next time
    throw error
  }
  // FTS5 changes fewer than 2 rows when there was nothing left to merge
  merged = totalChanges.get() - before < 2
}

let timer = setInterval(() => {
  try {
    checkpoint.get()
    mergeWhenQuiet()
  } catch (error) {
    clearInterval(timer)
    timer = undefined
    parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) })
  }
}, workerData.intervalMs)

parentPort.on('message', (message) => {
  if (message !== 'stop') return
  if (timer) clearInterval(timer)
  sqlite.close()
  parentPort.close()
})
