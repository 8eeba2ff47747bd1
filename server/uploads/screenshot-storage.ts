import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Where screenshots live. Keys are made here, never from a user's file name. */
export interface ScreenshotStorage {
  /** Writes the file durably (file and folder synced) before it returns its key. */
  save(options: { app: string; extension: string; bytes: Buffer }): Promise<string>
  has(key: string): Promise<boolean>
  remove(key: string): Promise<void>
  read(key: string): Promise<Buffer>
  /** The apps that have a screenshot folder. */
  apps(): Promise<string[]>
  /** The keys of an app's files, only those this store named (anything else in the folder is left out). */
  keys(app: string): Promise<string[]>
  /** Closes the folders it keeps open for syncing. */
  close(): Promise<void>
}

const FOLDER_SUFFIX = '-screenshots'
const FILE_NAME = /^\d+-[0-9a-f]{16}\.[a-z0-9]+$/
// O_DSYNC: each write returns once its data (and the file's size) is on disk, as write + fdatasync would,
// in one trip to libuv's threads rather than two; where there is none (Windows) the file is synced after
const { O_WRONLY, O_CREAT, O_EXCL, O_DSYNC } = fs.constants
const NEW_FILE_FLAGS = O_DSYNC === undefined ? 'wx' : O_WRONLY | O_CREAT | O_EXCL | O_DSYNC

/** Files under {dataDir}/screenshots/{app}-screenshots/{timestamp}-{random}.{ext}; nothing serves this folder. */
export function createDiskScreenshotStorage(dataDir: string): ScreenshotStorage {
  const root = path.join(dataDir, 'screenshots')
  const resolve = (key: string): string => {
    const full = path.resolve(root, key)
    if (!full.startsWith(root + path.sep)) throw new Error(`screenshot key "${key}" is outside the store`)
    return full
  }
  // folders known to exist: made (and their parents synced) once, not on every claim
  const madeFolders = new Set<string>()
  const folders = openFolders()
  const syncFolder = coalescedDirectorySync(folders.sync)
  const makeFolder = async (folder: string) => {
    if (madeFolders.has(folder)) return
    const created = await fs.promises.mkdir(folder, { recursive: true })
    // a folder made just now (an app's first claim) is itself an entry in its parent
    for (let dir = folder; created && dir !== path.dirname(created); dir = path.dirname(dir)) {
      await syncDirectory(path.dirname(dir))
    }
    madeFolders.add(folder)
  }
  return {
    async save({ app, extension, bytes }) {
      const key = `${app}${FOLDER_SUFFIX}/${Date.now()}-${crypto.randomBytes(8).toString('hex')}.${extension}`
      const file = resolve(key)
      const folder = path.dirname(file)
      await makeFolder(folder)
      // O_EXCL never overwrites; the file and its folder entry are on disk before the claim's row commits
      const handle = await fs.promises.open(file, NEW_FILE_FLAGS).catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error
        madeFolders.delete(folder) // removed while we ran (an operator, a test): make it again
        await makeFolder(folder)
        return fs.promises.open(file, NEW_FILE_FLAGS)
      })
      try {
        await handle.writeFile(bytes)
        if (O_DSYNC === undefined) await handle.sync()
      } finally {
        await handle.close()
      }
      await syncFolder(folder)
      return key
    },
    async has(key) {
      // a stat of a cached folder entry takes microseconds; done synchronously it does not queue behind
      // other claims' fsyncs in libuv's thread pool while a claim's transaction waits for it
      return fs.existsSync(resolve(key))
    },
    async remove(key) {
      await fs.promises.rm(resolve(key), { force: true })
    },
    async read(key) {
      return fs.promises.readFile(resolve(key))
    },
    async apps() {
      const entries = await fs.promises.readdir(root, { withFileTypes: true }).catch(ignoreMissing)
      return entries
        .filter((entry) => entry.isDirectory() && entry.name.endsWith(FOLDER_SUFFIX))
        .map((entry) => entry.name.slice(0, -FOLDER_SUFFIX.length))
        .sort()
    },
    async keys(app) {
      const folder = `${app}${FOLDER_SUFFIX}`
      const entries = await fs.promises.readdir(resolve(folder), { withFileTypes: true }).catch(ignoreMissing)
      return entries
        .filter((entry) => entry.isFile() && FILE_NAME.test(entry.name))
        .map((entry) => `${folder}/${entry.name}`)
    },
    close: () => folders.close(),
  }
}

async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return // a directory cannot be opened for fsync there
  const handle = await fs.promises.open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * The apps' folders, each kept open once synced, so that a sync is one fsync rather than open, fsync and
 * close (three trips to libuv's threads, each waiting its turn behind the other claims' work). A folder
 * removed and made again (an operator, a test) is a different directory: its inode tells, and it is opened
 * again. Plain descriptors, not FileHandles, which Node closes with a warning when they are collected.
 */
function openFolders(): { sync(directory: string): Promise<void>; close(): Promise<void> } {
  const opened = new Map<string, { fd: number; ino: number }>()
  const forget = async (directory: string) => {
    const known = opened.get(directory)
    opened.delete(directory)
    if (known) await new Promise<void>((resolve) => fs.close(known.fd, () => resolve()))
  }
  return {
    async sync(directory) {
      if (process.platform === 'win32') return // a directory cannot be opened for fsync there
      // a stat of a cached folder entry takes microseconds, and done here it queues behind nothing
      const { ino } = fs.statSync(directory)
      let known = opened.get(directory)
      if (known?.ino !== ino) {
        await forget(directory)
        const fd = await new Promise<number>((resolve, reject) =>
          fs.open(directory, 'r', (error, fd) => (error ? reject(error) : resolve(fd))),
        )
        known = { fd, ino: fs.fstatSync(fd).ino }
        opened.set(directory, known)
      }
      const { fd } = known
      await new Promise<void>((resolve, reject) =>
        fs.fsync(fd, (error) => (error ? reject(error) : resolve())),
      )
    },
    async close() {
      await Promise.all([...opened.keys()].map(forget))
    },
  }
}

/**
 * Syncs a folder for every caller whose entry was made before it called, sharing one fsync among the
 * claims that arrive while another is under way: each caller waits for a sync that starts after its call
 * (the one running may have started before its file existed), so no file is reported durable early.
 */
function coalescedDirectorySync(
  syncDirectory: (directory: string) => Promise<void>,
): (directory: string) => Promise<void> {
  const folders = new Map<string, { running?: Promise<void>; next?: Promise<void> }>()
  const start = (directory: string, state: { running?: Promise<void> }): Promise<void> => {
    const running = syncDirectory(directory).finally(() => {
      if (state.running === running) state.running = undefined
    })
    state.running = running
    return running
  }
  return (directory) => {
    let state = folders.get(directory)
    if (!state) folders.set(directory, (state = {}))
    const current = state
    if (!current.running) return start(directory, current)
    // one more sync after the running one, shared by everyone who arrives before it starts
    current.next ??= current.running
      .catch(() => undefined)
      .then(() => {
        current.next = undefined
        return start(directory, current)
      })
    return current.next
  }
}

function ignoreMissing(error: unknown): never[] {
  if ((error as { code?: unknown }).code === 'ENOENT') return []
  throw error
}
