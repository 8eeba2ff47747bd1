import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

// What the server keeps in DATA_DIR (the database, screenshots, e-mail copies, keys, backups) is
// claimants' personal data and the firm's secrets: readable by the server's own user only.
export const PRIVATE_FOLDER_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** Makes a folder (and its missing parents) readable by the server's user only; an existing one is left as it is. */
export function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE })
}

/**
 * Creates `file` empty with mode 0600 when it does not exist, so that what then writes it (SQLite, which
 * gives its -wal and -shm files the database file's mode; VACUUM INTO) keeps that mode.
 */
export function touchPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE))
}

/**
 * The text of a key file in `dataDir`, made on first use from `bytes` random bytes (hex, mode 0600).
 * Written whole under another name, then linked: a process starting at the same moment either links
 * first (and its key is the key) or reads a complete file.
 */
export function readOrMakeKeyFile({
  dataDir,
  name,
  bytes,
}: {
  dataDir: string
  name: string
  bytes: number
}): string {
  const file = path.join(dataDir, name)
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  makePrivateFolder(dataDir)
  const text = `${crypto.randomBytes(bytes).toString('hex')}\n`
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
  fs.writeFileSync(draft, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
  try {
    fs.linkSync(draft, file)
    return text
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return fs.readFileSync(file, 'utf8')
  } finally {
    fs.rmSync(draft, { force: true })
  }
}
