import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FormConfig } from '../../../src/form-config.ts'
import {
  addSpanishTexts,
  createTestContext,
  FORMS_DIR,
  listScreenshotFiles,
  makeClaimData,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { spanishForNewApp } from '../support/new-app-texts.ts'

/** A new tenant app made only by copying brigit.json and changing its names and texts. */
function makeAcmeCashConfig(): FormConfig {
  const brigit = JSON.parse(fs.readFileSync(path.join(FORMS_DIR, 'brigit.json'), 'utf8')) as FormConfig
  return {
    ...brigit,
    slug: 'acme-cash',
    displayName: 'Acme Cash',
    title: { app: 'Acme Cash', product: 'Cash Advance Claim' },
    intro: brigit.intro.replaceAll('Brigit', 'Acme Cash'),
    screenshotPrompt: brigit.screenshotPrompt.replaceAll('Brigit', 'Acme Cash'),
    submitLabel: 'Submit Acme Cash Claim',
    success: { line: 'Acme Cash Information Submitted Successfully' },
  }
}

describe('sqlite: adding an app is dropping a config', () => {
  let formsDir: string
  let ctx: TestContext

  beforeAll(async () => {
    formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-forms-'))
    fs.cpSync(FORMS_DIR, formsDir, { recursive: true })
    const config = makeAcmeCashConfig()
    fs.writeFileSync(path.join(formsDir, 'acme-cash.json'), JSON.stringify(config, null, 2))
    addSpanishTexts(formsDir, spanishForNewApp({ formsDir: FORMS_DIR, model: 'brigit', app: config }))
    ctx = await createTestContext('sqlite', { formsDir })
  })
  afterAll(async () => {
    await ctx?.close()
    fs.rmSync(formsDir, { recursive: true, force: true })
  })

  it('serves the new config next to the existing ones', async () => {
    const res = await request(ctx.app).get('/api/forms/acme-cash')

    expect(res.status).toBe(200)
    expect(res.body.displayName).toBe('Acme Cash')
    expect(ctx.forms.size).toBe(12)
  })

  it('takes a claim for the new app and stores it under its slug', async () => {
    const res = await request(ctx.app)
      .post('/api/forms/acme-cash/submissions')
      .field('data', JSON.stringify(makeClaimData()))
      .attach('screenshot', readFixture('bank-statement.png'), 'statement.png')

    expect(res.status).toBe(201)
    const row = await ctx.db.selectFrom('claims').selectAll().executeTakeFirstOrThrow()
    expect(row.app).toBe('acme-cash')
    expect(listScreenshotFiles(ctx.dataDir)).toEqual([
      expect.stringMatching(/^acme-cash-screenshots\/\d+-[0-9a-f]+\.png$/),
    ])
  })
})
