import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readServerConfig } from '../../../server/config.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

describe('REQUIRE_2FA', () => {
  it('takes all, admins or none in any case', () => {
    expect(readServerConfig({ REQUIRE_2FA: 'all' }).requireTwoFactor).toBe('all')
    expect(readServerConfig({ REQUIRE_2FA: ' Admins ' }).requireTwoFactor).toBe('admins')
    expect(
      readServerConfig({ REQUIRE_2FA: 'NONE', PUBLIC_URL: 'https://claims.example-firm.com' })
        .requireTwoFactor,
    ).toBe('none')
  })

  it('is admins when PUBLIC_URL is an https origin, and none on plain http or unset', () => {
    expect(readServerConfig({ PUBLIC_URL: 'https://claims.example-firm.com' }).requireTwoFactor).toBe(
      'admins',
    )
    expect(readServerConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).requireTwoFactor).toBe('none')
    expect(readServerConfig({}).requireTwoFactor).toBe('none')
  })

  it('refuses any other value, naming the setting and the values it takes', () => {
    expect(() => readServerConfig({ REQUIRE_2FA: 'staff' })).toThrow(
      'REQUIRE_2FA "staff" must be all, admins or none',
    )
  })

  it('stops npm start with exit code 1 and one line naming the setting when the value is bad', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bad-2fa-'))
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, REQUIRE_2FA: 'yes', PORT: '0', DATA_DIR: dataDir, SKIP_CLIENT_BUILD: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    fs.rmSync(dataDir, { recursive: true, force: true })

    expect(result.status).toBe(1)
    expect(result.stderr.trim().split('\n')[0]).toContain('REQUIRE_2FA "yes" must be all, admins or none')
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })
})
