// The WAL checkpointer's thread (started by wal-checkpointer.ts). Plain CommonJS so that it loads the same
// under `node --import tsx`, vitest and plain node: it only needs better-sqlite3.
const { parentPort, workerData } = require('node:worker_threads')
const SQLite = require(workerData.driver)

const sqlite = new SQLite(workerData.file)
sqlite.pragma('journal_mode = WAL')
sqlite.pragma('synchronous = NORMAL')

// PASSIVE: copies what it can without waiting for (or holding up) the server's readers and writers
const checkpoint = sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)')
let timer = setInterval(() => {
  try {
    checkpoint.get()
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
