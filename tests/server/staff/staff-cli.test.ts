import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, createTestContext, type TestContext } from '../support/helpers.ts'
import { mailsTo, plainTextOf } from '../support/agreement-link.ts'
import { productScript } from '../support/compiled-product.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

// the command opens the database as the server does, from DATA_DIR: the SQLite file of a test context
describe('npm run staff', () => {
  let ctx: TestContext

  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
  })
  afterAll(async () => {
    await ctx?.close()
  })

  function staff(...args: string[]) {
    return spawnSync(process.execPath, [...productScript('scripts/staff'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: ctx.dataDir, DATABASE_URL: '', SMTP_URL: '', PUBLIC_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    })
  }
  const accountRow = (email: string) =>
    ctx.db
      .selectFrom('staff_accounts')
      .select(['id', 'role', 'disabled_at', 'password_hash', 'totp_secret'])
      .where('email', '=', email)
      .executeTakeFirst()

  it('adds an account and e-mails its invitation to the outbox, naming where it went but not the link', async () => {
    const result = staff(
      'add',
      '--email',
      'pat@firm.test',
      '--name',
      'Pat Paralegal',
      '--role',
      'staff',
      '--app',
      'brigit',
      '--export',
    )

    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout.trim()).toBe(
      `Invited pat@firm.test: the one-time link (48 hours) went to ${path.join(ctx.dataDir, 'outbox')}`,
    )
    const [mail] = mailsTo(ctx.dataDir, 'pat@firm.test')
    const token = /\/staff\/invite#token=([\w-]+)/.exec(plainTextOf(mail?.eml ?? ''))?.[1]
    expect(token).toBeDefined()
    expect(result.stdout).not.toContain(token)
    expect(await accountRow('pat@firm.test')).toMatchObject({ role: 'staff', password_hash: null })
    const apps = await ctx.db.selectFrom('staff_account_apps').select(['app', 'can_export']).execute()
    expect(apps.map((row) => ({ ...row, can_export: Number(row.can_export) }))).toEqual([
      { app: 'brigit', can_export: 1 },
    ])
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'client_address', 'detail'])
      .where('action', '=', 'account_invited')
      .execute()
    expect(audit).toEqual([
      {
        action: 'account_invited',
        actor: 'command line',
        client_address: 'command line',
        detail: 'pat@firm.test: role staff, apps brigit (export)',
      },
    ])
  })

  it('lists the accounts', () => {
    const result = staff('list')
    expect(result.status).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual([
      `${ADMIN_EMAIL}\tAdministrator\trole admin\t2FA off\tactive`,
      'pat@firm.test\tPat Paralegal\trole staff, apps brigit (export)\t2FA off\tinvited',
    ])
  })

  it('disables, enables and resets two-factor sign-in by e-mail', async () => {
    expect(staff('disable', '--email', 'pat@firm.test').status).toBe(0)
    expect((await accountRow('pat@firm.test'))?.disabled_at).not.toBeNull()
    expect(staff('enable', '--email', 'pat@firm.test').status).toBe(0)
    expect((await accountRow('pat@firm.test'))?.disabled_at).toBeNull()

    await ctx.db
      .updateTable('staff_accounts')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP' })
      .where('email', '=', 'pat@firm.test')
      .execute()
    const reset = staff('reset-2fa', '--email', 'pat@firm.test')
    expect(reset.stdout.trim()).toBe('reset-2fa: done for pat@firm.test')
    expect((await accountRow('pat@firm.test'))?.totp_secret).toBeNull()
  })

  it('refuses to disable the last enabled admin, and a second e-mail of the same address', async () => {
    const last = staff('disable', '--email', ADMIN_EMAIL)
    expect(last.status).toBe(1)
    expect(last.stderr).toMatch(/last enabled admin/)
    expect((await accountRow(ADMIN_EMAIL))?.disabled_at).toBeNull()

    const twice = staff('add', '--email', 'PAT@firm.test', '--name', 'Pat', '--role', 'staff')
    expect(twice.status).toBe(1)
    expect(twice.stderr).toMatch(/already exists/)
  })

  it.each([
    { args: [] },
    { args: ['promote', '--email', 'pat@firm.test'] },
    { args: ['disable'] },
    { args: ['add', '--email', 'x@firm.test', '--name', 'X', '--role', 'staff', '--color', 'red'] },
    { args: ['list', '--email', 'x@firm.test'] },
  ])('exits 2 with the usage for $args', ({ args }) => {
    const result = staff(...args)
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/usage: npm run staff -- <command>/)
  })

  it('exits 2 naming the problem for an unknown app or a missing name, and 1 for an unknown e-mail', () => {
    const app = staff('add', '--email', 'y@firm.test', '--name', 'Y', '--role', 'staff', '--app', 'nosuch')
    expect(app.status).toBe(2)
    expect(app.stderr).toMatch(/unknown app "nosuch"/)
    const noName = staff('add', '--email', 'y@firm.test', '--role', 'staff')
    expect(noName.status).toBe(2)
    expect(noName.stderr).toMatch(/"name" must be[^]*usage: npm run staff/)
    const nobody = staff('enable', '--email', 'nobody@firm.test')
    expect(nobody.status).toBe(1)
    expect(nobody.stderr).toMatch(/no account has the e-mail "nobody@firm.test"/)
  })
})
