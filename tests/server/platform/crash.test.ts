import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { listScreenshotFiles, makeClaimData, makePng, pngDataUrl } from '../support/helpers.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

const CLAIMS = 300
const IN_FLIGHT = 12
/** The server is SIGKILLed when this many claims in all have been answered 201, then started again. */
const KILL_AFTER_CREATED = [90, 190]
const SIGNATURE = pngDataUrl()

interface SentClaim {
  index: number
  phoneNumber: string
  email: string
  screenshot: Buffer
  /** Set when the server answered 201. */
  id?: number
  /** 'no answer' when the connection died with the server. */
  outcome?: number | 'no answer'
}

interface ClaimRow {
  id: number
  phone_number: string
  email: string
  screenshot_key: string
  screenshot_type: string
}

interface RecordRow {
  claim_id: number
  html: string
  sha256: string
  signature: string
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-crash-'))

afterAll(async () => {
  await killServerProcesses()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

function makeClaims(): SentClaim[] {
  return Array.from({ length: CLAIMS }, (_, index) => ({
    index,
    phoneNumber: `(555) 400-${String(index).padStart(4, '0')}`,
    email: `claimant.${index}@example.com`,
    // a different picture per claim, so a file swapped between claims would show
    screenshot: makePng({ width: 8 + (index % 40), height: 4 + Math.floor(index / 40) }),
  }))
}

async function postClaim(url: string, claim: SentClaim): Promise<void> {
  const form = new FormData()
  form.append(
    'data',
    JSON.stringify(
      makeClaimData({
        firstName: `Crash${claim.index}`,
        email: claim.email,
        phoneNumber: claim.phoneNumber,
        signature: SIGNATURE,
      }),
    ),
  )
  form.append(
    'screenshot',
    new Blob([new Uint8Array(claim.screenshot)], { type: 'image/png' }),
    'statement.png',
  )
  try {
    const response = await fetch(`${url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
    const body = (await response.json()) as { id?: number }
    claim.outcome = response.status
    if (response.status === 201) claim.id = body.id
  } catch {
    claim.outcome = 'no answer'
  }
}

/**
 * Sends the queued claims, IN_FLIGHT at a time, until the queue is empty or, with killAt, until that
 * many claims in all have been answered 201: then the server is SIGKILLed with requests in flight.
 */
async function sendClaims(
  server: ServerProcess,
  queue: SentClaim[],
  { created, killAt }: { created: () => number; killAt?: number },
): Promise<{ killed: Promise<string> | undefined }> {
  let killed: Promise<string> | undefined
  const worker = async () => {
    while (!killed && queue.length > 0) {
      await postClaim(server.url, queue.shift()!)
      if (killAt !== undefined && !killed && created() >= killAt) killed = server.kill('SIGKILL')
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return { killed }
}

function readDatabase(): { claims: ClaimRow[]; records: RecordRow[] } {
  // not read-only: after a SIGKILL, SQLite may have to rebuild its WAL index, which needs write access
  const db = new SQLite(path.join(dataDir, 'claims.db'), { fileMustExist: true })
  try {
    return {
      claims: db
        .prepare('SELECT id, phone_number, email, screenshot_key, screenshot_type FROM claims ORDER BY id')
        .all() as ClaimRow[],
      records: db
        .prepare('SELECT claim_id, html, sha256, signature FROM agreement_records ORDER BY claim_id')
        .all() as RecordRow[],
    }
  } finally {
    db.close()
  }
}

/** Screenshot files (temporary or not) that no claim row names. */
function orphanFiles(): string[] {
  const named = new Set(readDatabase().claims.map((row) => row.screenshot_key))
  return listScreenshotFiles(dataDir).filter((file) => !named.has(file))
}

/** The counts the start-up recovery logged; its log line carries nothing else. */
async function recoveryLog(server: ServerProcess): Promise<Record<string, unknown>> {
  const line = await server.waitForLine('"screenshot recovery"')
  const { level, time, ...fields } = JSON.parse(line) as Record<string, unknown>
  expect([level, time]).not.toContain(undefined)
  return fields
}

describe('sqlite: a server SIGKILLed while 300 claims arrive', () => {
  it('keeps every claim answered 201 with its screenshot and signed record, and no file without its row', async () => {
    const claims = makeClaims()
    const queue = [...claims]
    const created = () => claims.filter((claim) => claim.outcome === 201).length
    const removedByRecovery: number[] = []

    let server = await startServerProcess({ dataDir })
    for (const killAt of KILL_AFTER_CREATED) {
      const { killed } = await sendClaims(server, queue, { created, killAt })
      expect(killed, `the server was killed after ${killAt} claims answered 201`).toBeDefined()
      await killed
      // what the kill left: files written for claims that never committed, plus a half-written one
      const leftovers = orphanFiles()
      const partial = `brigit-screenshots/${Date.now()}-${crypto.randomBytes(8).toString('hex')}.png`
      fs.writeFileSync(path.join(dataDir, 'screenshots', partial), makePng().subarray(0, 20))

      server = await startServerProcess({ dataDir })
      expect(await recoveryLog(server)).toEqual({
        msg: 'screenshot recovery',
        screenshotFiles: expect.any(Number),
        orphansRemoved: leftovers.length + 1,
      })
      removedByRecovery.push(leftovers.length + 1)
      expect(orphanFiles()).toEqual([])
    }
    // the last start takes the rest of the claims
    const rest = queue.length
    expect(rest).toBeGreaterThan(0)
    await sendClaims(server, queue, { created })
    expect(queue).toEqual([])
    expect(claims.slice(-rest).map((claim) => claim.outcome)).toEqual(Array(rest).fill(201))

    // only the requests in flight at a kill went unanswered; every other claim was taken
    const lost = claims.filter((claim) => claim.outcome === 'no answer').length
    expect(claims.filter((claim) => claim.outcome !== 201 && claim.outcome !== 'no answer')).toEqual([])
    expect(lost).toBeLessThanOrEqual(IN_FLIGHT * KILL_AFTER_CREATED.length)

    const { claims: rows, records } = readDatabase()
    const answered = claims.filter((claim) => claim.outcome === 201)
    const rowById = new Map(rows.map((row) => [row.id, row]))
    const recordById = new Map(records.map((record) => [record.claim_id, record]))
    for (const claim of answered) {
      const row = rowById.get(claim.id!)
      expect(row, `claim ${claim.index} (id ${claim.id}) was answered 201`).toBeDefined()
      expect(row).toMatchObject({ phone_number: claim.phoneNumber, email: claim.email })
      const file = path.join(dataDir, 'screenshots', row!.screenshot_key)
      expect(fs.readFileSync(file).equals(claim.screenshot), `screenshot of claim ${claim.index}`).toBe(true)
      const record = recordById.get(claim.id!)
      expect(record, `signed record of claim ${claim.index}`).toBeDefined()
      expect(record!.sha256).toBe(crypto.createHash('sha256').update(record!.html, 'utf8').digest('hex'))
      expect(record!.html).toContain(claim.email)
      expect(record!.signature).toBe(SIGNATURE)
    }
    // every row has its file and every file its row, with nothing else (no temporary files) in the store
    expect(listScreenshotFiles(dataDir)).toEqual(rows.map((row) => row.screenshot_key).sort())
    expect(records.map((record) => record.claim_id)).toEqual(rows.map((row) => row.id))
    // a row the server committed but could not answer (the kill cut the connection) is one of ours
    const sentPhones = new Set(claims.map((claim) => claim.phoneNumber))
    for (const row of rows) expect(sentPhones.has(row.phone_number)).toBe(true)

    console.log(
      `crash test: ${CLAIMS} claims sent, ${answered.length} answered 201, ${lost} cut off by the kills ` +
        `(${rows.length - answered.length} of those committed anyway), recovery removed ${removedByRecovery.join(' + ')} orphan files`,
    )
    await server.kill('SIGTERM')
  }, 180_000)
})
