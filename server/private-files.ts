import fs from 'node:fs'

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
