import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { readServerConfig } from '../../../server/config.ts'
import { createDb } from '../../../server/db/create-db.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { removeSealed } from '../../../server/ops/purge-expired.ts'
import { createScreenshotStorage } from '../../../server/uploads/create-screenshot-storage.ts'
import { createPostgresDatabase, makeClaimData, makePng } from '../support/helpers.ts'
import { killServerProcesses, startServerProcess } from '../support/server-process.ts'

afterAll(() => killServerProcesses())

describe('DATABASE_OWNER_URL: the server runs as a role that cannot rewrite the evidence', () => {
  it('is refused without DATABASE_URL, with another scheme, or with a DATABASE_URL that names no user', () => {
    expect(() => readServerConfig({ DATABASE_OWNER_URL: 'postgres://owner@db/claims' })).toThrow(
      'DATABASE_OWNER_URL needs DATABASE_URL',
    )
    expect(() =>
      readServerConfig({ DATABASE_URL: 'postgres://server@db/claims', DATABASE_OWNER_URL: 'mysql://db' }),
    ).toThrow('DATABASE_OWNER_URL must start with postgres://')
    expect(() =>
      readServerConfig({
        DATABASE_URL: 'postgres://db/claims',
        DATABASE_OWNER_URL: 'postgres://owner@db/claims',
      }),
    ).toThrow('DATABASE_URL must name its user')
  })

  it("migrates as the owner, takes claims as the server's role, and that role cannot change, delete or unguard the ledger and the signed records", async () => {
    const database = await createPostgresDatabase({ migrated: false })
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-server-role-'))
    const role = `claims_server_${crypto.randomBytes(4).toString('hex')}`
    const password = crypto.randomBytes(12).toString('hex')
    const admin = new pg.Client({ connectionString: inject('postgresUrl') })
    await admin.connect()
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
    const serverUrl = new URL(database.url)
    serverUrl.username = role
    serverUrl.password = password
    const evidenceKey = crypto.randomBytes(32)
    const server = await startServerProcess({
      dataDir,
      databaseUrl: serverUrl.toString(),
      env: { DATABASE_OWNER_URL: database.url, EVIDENCE_KEY: evidenceKey.toString('hex') },
    })
    const asServer = new pg.Client({ connectionString: serverUrl.toString() })
    try {
      const form = new FormData()
      form.append('data', JSON.stringify(makeClaimData()))
      form.append('screenshot', new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))]), 's.png')
      const res = await fetch(`${server.url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
      expect(res.status).toBe(201)
      const { id } = (await res.json()) as { id: number }

      await asServer.connect()
      const refusal = (statement: string) =>
        asServer.query(statement).then(
          () => 'done',
          (error: Error) => error.message,
        )
      expect(await refusal(`UPDATE agreement_records SET html = '<p>forged</p>'`)).toBe(
        'permission denied for table agreement_records',
      )
      expect(await refusal(`DELETE FROM agreement_records`)).toBe(
        'permission denied for table agreement_records',
      )
      expect(await refusal(`DELETE FROM evidence_ledger`)).toBe('permission denied for table evidence_ledger')
      expect(await refusal(`TRUNCATE evidence_ledger`)).toBe('permission denied for table evidence_ledger')
      expect(await refusal(`ALTER TABLE evidence_ledger DISABLE TRIGGER USER`)).toBe(
        'must be owner of table evidence_ledger',
      )
      expect(await refusal(`DROP TABLE agreement_records CASCADE`)).toBe(
        'must be owner of table agreement_records',
      )
      expect((await asServer.query('SELECT count(*)::int AS n FROM evidence_ledger')).rows).toEqual([
        { n: 1 },
      ])
      await server.kill('SIGTERM')

      // the owner purges (purge-expired's one path), and the chain still verifies
      const { db: owner } = createDb({ databaseUrl: database.url, dataDir })
      const storage = createScreenshotStorage({ dataDir, s3: undefined })
      try {
        await owner
          .transaction()
          .execute((trx) =>
            removeSealed(trx, evidenceKey, { kind: 'claim', ids: [id], detail: { reason: 'test' } }),
          )
        const report = await verifyEvidence({ db: owner, storage, evidenceKey })
        expect(report).toMatchObject({ ledgerEntries: 2, problems: [] })
      } finally {
        await storage.close()
        await owner.destroy()
      }
    } finally {
      await asServer.end().catch(() => undefined)
      await killServerProcesses()
      await database.drop()
      await admin.query(`DROP ROLE IF EXISTS ${role}`)
      await admin.end()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
