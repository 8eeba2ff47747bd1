import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { AppError } from '../../src/app-error.ts'
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files.ts'

/**
 * Where screenshots live. Keys are made here, never from a user's file name. A store that cannot be
 * reached or written throws screenshotStoreUnavailableError() (503); a key that is not there throws an
 * error whose code is 'ENOENT'.
 */
export interface ScreenshotStorage {
  /** Writes the file durably (file and folder synced) before it returns its key. */
  save(options: { app: string; extension: string; bytes: Buffer }): Promise<string>
  has(key: string): Promise<boolean>
  remove(key: string): Promise<void>
  read(key: string): Promise<Buffer>
  /** The file's bytes as a stream, for sending on without holding them all; the caller consumes or destroys it. */
  stream(key: string): Promise<{ body: Readable; size: number }>
  /** The apps that have a screenshot folder. */
  apps(): Promise<string[]>
  /** The keys of an app's files, only those this store named (anything else in the folder is left out). */
  keys(app: string): Promise<string[]>
  /** Readiness: resolves when the store answers and looks writable, else rejects with a short reason. */
  check(): Promise<void>
  /** Closes the folders (or connections) it keeps open. */
  close(): Promise<void>
}

export const SCREENSHOT_FOLDER_SUFFIX = '-screenshots'
/** The names a store gives its files; anything else in an app's folder is someone else's. */
export const SCREENSHOT_FILE_NAME = /^\d+-[0-9a-f]{16}\.[a-z0-9]+$/

/** A new key: `${app}-screenshots/${Date.now()}-${16 hex}.${extension}`. */
export function newScreenshotKey(app: string, extension: string): string {
  return `${app}${SCREENSHOT_FOLDER_SUFFIX}/${Date.now()}-${crypto.randomBytes(8).toString('hex')}.${extension}`
}

/** The 503 a claim (or a staff view) gets while the screenshot store cannot be reached or written. */
export function screenshotStoreUnavailableError(cause: unknown): AppError {
  // cause: for whoever logs it; the claimant sees only the message
  return Object.assign(
    new AppError('STORE_UNAVAILABLE', {
      status: 503,
      message: 'the screenshot store cannot be reached; please try again in a few minutes',
      headers: { 'Retry-After': '30' },
    }),
    { cause },
  )
}

/** The error a store throws for a key it does not hold, coded like the file system's. */
export function screenshotNotFoundError(key: string): Error {
  return Object.assign(new Error(`screenshot "${key}" not found`), { code: 'ENOENT' })
}

// the disk itself failing, full, read-only or refused to us: the store is unavailable, not the claim wrong
const DISK_UNAVAILABLE = new Set(['EIO', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS'])
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
    const created = await fs.promises.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE })
    // a folder made just now (an app's first claim) is itself an entry in its parent
    for (let dir = folder; created && dir !== path.dirname(created); dir = path.dirname(dir)) {
      await syncDirectory(path.dirname(dir))
    }
    madeFolders.add(folder)
  }
  const saveFile = async ({ app, extension, bytes }: { app: string; extension: string; bytes: Buffer }) => {
    const key = newScreenshotKey(app, extension)
    const file = resolve(key)
    const folder = path.dirname(file)
    await makeFolder(folder)
    // O_EXCL never overwrites; the file and its folder entry are on disk before the claim's row commits
    const handle = await fs.promises
      .open(file, NEW_FILE_FLAGS, PRIVATE_FILE_MODE)
      .catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error
        madeFolders.delete(folder) // removed while we ran (an operator, a test): make it again
        await makeFolder(folder)
        return fs.promises.open(file, NEW_FILE_FLAGS, PRIVATE_FILE_MODE)
      })
    try {
      await handle.writeFile(bytes)
      if (O_DSYNC === undefined) await handle.sync()
    } finally {
      await handle.close()
    }
    await syncFolder(folder)
    return key
  }
  return {
    save: async ({ app, extension, bytes }) => whenDiskFails(saveFile({ app, extension, bytes })),
    async has(key) {
      // a stat of a cached folder entry takes microseconds; done synchronously it does not queue behind
      // other claims' fsyncs in libuv's thread pool while a claim's transaction waits for it
      return fs.existsSync(resolve(key))
    },
    async remove(key) {
      await fs.promises.rm(resolve(key), { force: true })
    },
    read: async (key) => whenDiskFails(fs.promises.readFile(resolve(key))),
    async stream(key) {
      const file = resolve(key)
      // one descriptor for the size and the bytes: a file removed in between cannot split them
      const handle = await whenDiskFails(fs.promises.open(file, 'r'))
      try {
        const { size } = await handle.stat()
        return { body: handle.createReadStream(), size }
      } catch (error) {
        await handle.close()
        throw error
      }
    },
    async apps() {
      const entries = await fs.promises.readdir(root, { withFileTypes: true }).catch(ignoreMissing)
      return entries
        .filter((entry) => entry.isDirectory() && entry.name.endsWith(SCREENSHOT_FOLDER_SUFFIX))
        .map((entry) => entry.name.slice(0, -SCREENSHOT_FOLDER_SUFFIX.length))
        .sort()
    },
    async keys(app) {
      const folder = `${app}${SCREENSHOT_FOLDER_SUFFIX}`
      const entries = await fs.promises.readdir(resolve(folder), { withFileTypes: true }).catch(ignoreMissing)
      return entries
        .filter((entry) => entry.isFile() && SCREENSHOT_FILE_NAME.test(entry.name))
        .map((entry) => `${folder}/${entry.name}`)
    },
    async check() {
      try {
        await fs.promises.mkdir(root, { recursive: true, mode: PRIVATE_FOLDER_MODE })
        await fs.promises.access(root, fs.constants.W_OK)
      } catch (error) {
        const code = (error as { code?: unknown }).code
        throw new Error(`screenshot folder ${root} is not writable (${String(code ?? error)})`)
      }
    },
    close: () => folders.close(),
  }
}

/** The disk's own failures (full, broken, read-only, refused) become the store's 503; the rest pass. */
async function whenDiskFails<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && DISK_UNAVAILABLE.has(code)) throw screenshotStoreUnavailableError(error)
    throw error
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
