import { parseArgs } from 'node:util'
import { AppError } from '../src/app-error.ts'
import { readServerConfig } from '../server/config.ts'
import { createDb } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { legalHolds, setLegalHold, type HeldKind } from '../server/evidence/legal-hold.ts'
import { auditLog } from '../server/audit/audit-log.ts'

// npm run legal-hold -- set|lift|show --claim ID|--intake ID [--reason TEXT]: a legal hold goes into the
// evidence ledger (purge-expired trusts nothing else), with the legal_hold column beside it as a cache.
const USAGE = `usage: npm run legal-hold -- <command> --claim ID | --intake ID
  set --reason TEXT       keep the record past the retention period (the reason goes into the ledger)
  lift --reason TEXT      let purge-expired delete it again once its retention period is over
  show                    whether the ledger holds it`

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`)
  process.exit(2)
}

let command: string
let kind: HeldKind
let id: number
let reason: string | undefined
try {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    strict: true,
    options: { claim: { type: 'string' }, intake: { type: 'string' }, reason: { type: 'string' } },
  })
  command = positionals[0] ?? ''
  if (!['set', 'lift', 'show'].includes(command) || positionals.length !== 1) {
    throw new Error(`unknown command "${positionals.join(' ')}"`)
  }
  const idText = values.claim ?? values.intake
  if ((values.claim === undefined) === (values.intake === undefined) || !/^\d{1,15}$/.test(idText ?? '')) {
    throw new Error('give one of --claim ID or --intake ID (the id the dashboard shows)')
  }
  kind = values.claim === undefined ? 'intake' : 'claim'
  id = Number(idText)
  reason = values.reason
  if (command !== 'show' && (reason ?? '').trim() === '') throw new Error(`${command} needs --reason TEXT`)
} catch (error) {
  usage((error as Error).message)
}

const config = readServerConfig()
const { db } = createDb(config)
try {
  await migrateToLatest(db)
  const evidenceKey = loadEvidenceKey({ setting: config.evidenceKey, dataDir: config.dataDir })
  if (command === 'show') {
    const hold = (await legalHolds(db, evidenceKey, kind, [id])).get(id)!
    console.log(
      `${kind} ${id}: ${hold.isHeld ? 'on legal hold' : 'not on legal hold'}` +
        (hold.isForged ? ' (a hold entry does not verify: kept, run npm run verify-evidence)' : ''),
    )
  } else {
    const isHeld = command === 'set'
    const { changed } = await setLegalHold({
      db,
      evidenceKey,
      kind,
      id,
      isHeld,
      reason: reason!,
      actor: 'command line',
    })
    // the audit page lists it with the staff's actions; the hold entry itself is what purge reads
    if (changed) {
      await auditLog(
        db,
        evidenceKey,
      )({
        clientAddress: 'command line',
        actor: 'command line',
        action: isHeld ? 'legal_hold_set' : 'legal_hold_lifted',
        detail: `${kind} ${id}: ${reason!.trim()}`,
      })
    }
    console.log(
      `${kind} ${id}: ${changed ? '' : 'already '}${isHeld ? 'on legal hold' : 'not on legal hold'}` +
        (changed ? ' (written into the evidence ledger)' : ''),
    )
  }
} catch (error) {
  console.error(error instanceof AppError || error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await db.destroy()
}
