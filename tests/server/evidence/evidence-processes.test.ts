import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createDb } from '../../../server/db/create-db.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { createScreenshotStorage } from '../../../server/uploads/create-screenshot-storage.ts'
import { createPostgresDatabase, DIALECTS, makeClaimData, makePng } from '../support/helpers.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

const CLAIMS = 50

async function fileClaim(server: ServerProcess, n: number): Promise<number> {
  const form = new FormData()
  const phone = `(555) 420-${String(n).padStart(4, '0')}`
  form.append('data', JSON.stringify(makeClaimData({ email: `e${n}@example.com`, phoneNumber: phone })))
  form.append('screenshot', new Blob([new Uint8Array(makePng({ width: 20 + n, height: 10 }))]), 's.png')
  const res = await fetch(`${server.url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
  return res.status
}

afterAll(() => killServerProcesses())

describe.each(DIALECTS)('%s: the evidence ledger under two server processes', (dialect) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-evidence-'))
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  it(`keeps one unbroken chain when ${CLAIMS} claims arrive at once, split across both`, async () => {
    const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
    // one data folder for both (the screenshots, and on SQLite the database), one key
    const env = { EVIDENCE_KEY: crypto.randomBytes(32).toString('hex') }
    const first = await startServerProcess({ dataDir, databaseUrl: database?.url, env })
    const second = await startServerProcess({ dataDir, databaseUrl: database?.url, env })
    try {
      const statuses = await Promise.all(
        Array.from({ length: CLAIMS }, (_, n) => fileClaim(n % 2 === 0 ? first : second, n)),
      )
      expect(statuses).toEqual(Array.from({ length: CLAIMS }, () => 201))
      await Promise.all([first.kill('SIGTERM'), second.kill('SIGTERM')])

      const { db } = createDb({ databaseUrl: database?.url, dataDir })
      const storage = createScreenshotStorage({ dataDir, s3: undefined })
      try {
        const seqs = await db.selectFrom('evidence_ledger').select('seq').orderBy('seq').execute()
        expect(seqs.map((row) => Number(row.seq))).toEqual(Array.from({ length: CLAIMS }, (_, i) => i + 1))
        const report = await verifyEvidence({
          db,
          storage,
          evidenceKey: Buffer.from(env.EVIDENCE_KEY, 'hex'),
          dataDir,
        })
        expect(report).toMatchObject({ ledgerEntries: CLAIMS, claims: CLAIMS, problems: [] })
        // both wrote the head as they stopped, and neither moved it back
        const head = JSON.parse(fs.readFileSync(path.join(dataDir, 'evidence-head.json'), 'utf8'))
        expect(head).toMatchObject({ seq: CLAIMS })
      } finally {
        await storage.close()
        await db.destroy()
      }
    } finally {
      await killServerProcesses()
      await database?.drop()
    }
    // two servers started and 50 claims sealed: seconds alone, far more beside a busy run
  }, 120_000)
})
