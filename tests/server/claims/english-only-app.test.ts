import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestContext,
  DIALECTS,
  FORMS_DIR,
  makeClaimData,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

/** The texts of forms/acme.json that forms/es/config.json has no Spanish for. */
const MISSING_SPANISH = [
  'forms/acme.json: /intro: no es text for "Congratulations on qualifying for the next step in our case against Acme. Please provide the information to continue." in forms/es/config.json',
  'forms/acme.json: /screenshotPrompt: no es text for "Upload a screenshot of your bank statement showing a Acme subscription fee or cash advance transaction." in forms/es/config.json',
  'forms/acme.json: /submitLabel: no es text for "Submit Acme Claim" in forms/es/config.json',
  'forms/acme.json: /success/line: no es text for "Acme Information Submitted Successfully" in forms/es/config.json',
]

/**
 * A copy of forms/ (in a folder named forms, as messages name it) with forms/acme.json added as the
 * README's "Adding an app" says: brigit.json copied and Brigit renamed Acme, and no Spanish written.
 */
function formsWithEnglishOnlyAcme(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'claims-acme-')), 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  const brigit = fs.readFileSync(path.join(FORMS_DIR, 'brigit.json'), 'utf8')
  fs.writeFileSync(
    path.join(dir, 'acme.json'),
    brigit.replaceAll('Brigit', 'Acme').replaceAll('brigit', 'acme'),
  )
  return dir
}

function removeForms(formsDir: string): void {
  fs.rmSync(path.dirname(formsDir), { recursive: true, force: true })
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: an app with English texts only`, () => {
    let formsDir: string
    let ctx: TestContext

    beforeAll(async () => {
      formsDir = formsWithEnglishOnlyAcme()
      ctx = await createTestContext(dialect, { formsDir })
    })
    afterAll(async () => {
      await ctx?.close()
      removeForms(formsDir)
    })

    it('serves a Spanish reader the English form, naming English as its only language', async () => {
      const res = await request(ctx.app).get('/api/forms/acme?lang=es').expect(200)

      expect(res.body).toMatchObject({ submitLabel: 'Submit Acme Claim', languages: ['en'] })
      expect(res.body.schema.properties.firstName.title).toBe('First Name')
      const validator = await request(ctx.app).get('/api/forms/acme/validator.js?lang=es').expect(200)
      const english = await request(ctx.app).get('/api/forms/acme/validator.js').expect(200)
      expect(validator.text).toBe(english.text)
      // the other apps are still Spanish
      const brigit = await request(ctx.app).get('/api/forms/brigit?lang=es').expect(200)
      expect(brigit.body).toMatchObject({ submitLabel: 'Enviar reclamo de Brigit', languages: ['en', 'es'] })
    })

    it('takes a claim sent from ?lang=es and records it, its agreement and its consent in English', async () => {
      await request(ctx.app)
        .post('/api/forms/acme/submissions?lang=es')
        .field('data', JSON.stringify(makeClaimData()))
        .attach('screenshot', readFixture('bank-statement.png'), 'statement.png')
        .expect(201)

      const claim = await ctx.db
        .selectFrom('claims')
        .selectAll()
        .where('app', '=', 'acme')
        .executeTakeFirstOrThrow()
      expect(claim.locale).toBe('en')
      const record = await ctx.db
        .selectFrom('agreement_records')
        .selectAll()
        .where('claim_id', '=', claim.id)
        .executeTakeFirstOrThrow()
      expect(record.locale).toBe('en')
      expect(record.html).toContain('Attorney-Client Contingency Fee Agreement')
      expect(record.html).not.toContain('Acuerdo de Honorarios Contingentes')
      expect(record.consent_text).toBe(ctx.forms.get('acme')!.agreement.consent)
    })
  })
}

describe('npm start with an app that has English texts only', () => {
  let formsDir: string
  let server: ServerProcess

  beforeAll(async () => {
    formsDir = formsWithEnglishOnlyAcme()
    const dataDir = path.join(path.dirname(formsDir), 'data')
    server = await startServerProcess({ dataDir, env: { FORMS_DIR: formsDir }, startTimeoutMs: 90_000 })
  })
  afterAll(async () => {
    await killServerProcesses()
    removeForms(formsDir)
  })

  it('starts, serves the app, and warns in its log naming each text without Spanish', async () => {
    const res = await fetch(`${server.url}/api/forms/acme?lang=es`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ submitLabel: 'Submit Acme Claim', languages: ['en'] })
    for (const warning of MISSING_SPANISH) {
      const line = await server.waitForLine(JSON.stringify(warning).slice(1, -1))
      expect(JSON.parse(line)).toMatchObject({ level: 40, msg: warning })
    }
    const summary = await server.waitForLine('not offered in es')
    expect(JSON.parse(summary).msg).toBe('forms/acme.json: not offered in es: 4 texts have no es translation')
    expect(await server.kill('SIGTERM')).toBe('code 0')
  })
})

describe('npm run check-config', () => {
  function checkConfig(formsDir: string) {
    return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-config.ts'], {
      cwd: ROOT,
      env: { ...process.env, FORMS_DIR: formsDir },
      encoding: 'utf8',
      timeout: 60_000,
    })
  }

  it('lists every text without a translation and exits 1', () => {
    const formsDir = formsWithEnglishOnlyAcme()
    const result = checkConfig(formsDir)
    removeForms(formsDir)

    expect(result.status).toBe(1)
    expect(result.stderr.trim().split('\n')).toEqual([
      'incomplete translations:',
      ...MISSING_SPANISH.map((line) => `  ${line}`),
      '  forms/acme.json: not offered in es: 4 texts have no es translation',
    ])
  })

  it('exits 0 on the forms/ of this repository, every text translated', () => {
    const result = checkConfig(FORMS_DIR)

    expect(result.status).toBe(0)
    expect(result.stdout).toContain('every text in en, es')
  })
})
