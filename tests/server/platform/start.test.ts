import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

describe('npm start with a broken form config', () => {
  it('stops with exit code 1 naming the file, the JSON pointer and the reason', () => {
    const formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-broken-forms-'))
    fs.cpSync(path.join(ROOT, 'forms'), formsDir, { recursive: true })
    // an app's file overriding one widget of the shared base, misspelt
    const brigit = JSON.parse(fs.readFileSync(path.join(formsDir, 'brigit.json'), 'utf8'))
    brigit.uiSchema = { phoneNumber: { 'ui:widget': 'phoen' } }
    fs.writeFileSync(path.join(formsDir, 'brigit.json'), JSON.stringify(brigit))

    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, FORMS_DIR: formsDir, PORT: '0', DATA_DIR: path.join(formsDir, 'data') },
      encoding: 'utf8',
      timeout: 60_000,
    })
    fs.rmSync(formsDir, { recursive: true, force: true })

    expect(result.status).toBe(1)
    expect(result.stderr).toContain(
      'brigit.json: /uiSchema/phoneNumber/ui:widget: must be equal to one of the allowed values',
    )
  })
})

describe('npm start with a setting it cannot use', () => {
  it.each([
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY "yes please" is not understood'],
    [{ PUBLIC_URL: 'claims.example-firm.com' }, 'PUBLIC_URL "claims.example-firm.com" is not an origin'],
    [{ S3_BUCKET: 'screenshots' }, 'S3_BUCKET is set but S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not'],
    [{ EVIDENCE_KEY: 'correct horse' }, 'EVIDENCE_KEY must be 64 hex characters'],
    [
      { HOST: '0.0.0.0', PUBLIC_URL: '' },
      'PUBLIC_URL must be set when HOST "0.0.0.0" lets other machines connect',
    ],
  ])('stops with exit code 1 and one line naming the setting: %o', (settings, message) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bad-setting-'))
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...settings, PORT: '0', DATA_DIR: dataDir, SKIP_CLIENT_BUILD: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    fs.rmSync(dataDir, { recursive: true, force: true })

    expect(result.status).toBe(1)
    expect(result.stderr.trim().split('\n')[0]).toContain(message)
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })
})
