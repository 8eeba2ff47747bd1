import { parseArgs } from 'node:util'
import { AppError } from '../src/app-error.ts'
import { readServerConfig, serverUrl } from '../server/config.ts'
import { createDb } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { createLogger } from '../server/logger.ts'
import { parseAccountInput } from '../server/accounts/account-input.ts'
import { createStaffMailer } from '../server/staff/staff-mailer.ts'
import {
  changeDisabled,
  describeAccess,
  inviteAccount,
  listAccounts,
  resendInvite,
  resetAccountTwoFactor,
  type RecordChange,
} from '../server/accounts/manage-accounts.ts'
import { auditLog } from '../server/audit/audit-log.ts'
import { findAccountByEmail } from '../server/staff/staff-accounts.ts'

// npm run staff -- add|list|disable|enable|reset-2fa|resend …: the accounts page's work for an operator
// at the server, with the server's own settings (DATA_DIR, DATABASE_URL, SMTP_URL, PUBLIC_URL).
const USAGE = `usage: npm run staff -- <command>
  add --email E --name N --role admin|staff [--app SLUG ...] [--export]
                          invite a person: the one-time link goes by e-mail (SMTP_URL, else DATA_DIR/outbox)
  list                    every account, its role, apps, two-factor and state
  disable --email E       end the account's sessions and refuse its sign-in
  enable --email E        let a disabled account sign in again
  reset-2fa --email E     turn off two-factor sign-in of an account that lost its authenticator
  resend --email E        a new invitation link for an account that has not set its password`

const COMMANDS = new Set(['add', 'list', 'disable', 'enable', 'reset-2fa', 'resend'])

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`)
  process.exit(2)
}

let parsed: ReturnType<typeof parseCommand>
try {
  parsed = parseCommand(process.argv.slice(2))
} catch (error) {
  usage((error as Error).message)
}

function parseCommand(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      app: { type: 'string', multiple: true },
      export: { type: 'boolean' },
    },
  })
  const [command, ...extra] = positionals
  if (!command || !COMMANDS.has(command)) throw new Error(`unknown command "${command ?? ''}"`)
  if (extra.length > 0) throw new Error(`unexpected "${extra.join(' ')}"`)
  if (command !== 'list' && !values.email) throw new Error(`${command} needs --email`)
  if (command === 'list' && Object.keys(values).length > 0) throw new Error('list takes no options')
  if (command !== 'add' && (values.name || values.role || values.app || values.export))
    throw new Error(`${command} takes only --email`)
  return { command, values }
}

const { command, values } = parsed
const config = readServerConfig()
const forms = loadFormConfigs(config.formsDir)
const { db } = createDb(config)
const audit = auditLog(db, loadEvidenceKey({ setting: config.evidenceKey, dataDir: config.dataDir }))
const record: RecordChange = (action, detail) =>
  audit({ clientAddress: 'command line', actor: 'command line', action, detail })
const mailer = createStaffMailer({
  smtpUrl: config.smtpUrl,
  dataDir: config.dataDir,
  from: config.mailFrom,
  logger: createLogger(config.logLevel),
})
const siteOrigin = config.publicUrl ?? serverUrl(config.host, config.port)

try {
  // with DATABASE_OWNER_URL the server's role may not migrate; the server's own start has
  if (!config.databaseOwnerUrl) await migrateToLatest(db)
  if (command === 'list') {
    for (const account of await listAccounts(db)) {
      const state = account.disabled ? 'disabled' : account.invitePending ? 'invited' : 'active'
      console.log(
        [
          account.email,
          account.name,
          describeAccess(account),
          `2FA ${account.twoFactor ? 'on' : 'off'}`,
          state,
        ].join('\t'),
      )
    }
  } else if (command === 'add') {
    const input = parseAddArguments()
    const { emailed } = await inviteAccount({ db, mailer, siteOrigin, input, record })
    reportInvitation(input.email, emailed)
  } else {
    const account = await findAccountByEmail(db, values.email!)
    if (!account)
      throw new AppError('NOT_FOUND', { status: 404, message: `no account has the e-mail "${values.email}"` })
    const change = { db, actorId: undefined, accountId: account.id, record }
    if (command === 'disable') await changeDisabled(change, true)
    if (command === 'enable') await changeDisabled(change, false)
    if (command === 'reset-2fa') await resetAccountTwoFactor(change)
    if (command === 'resend')
      reportInvitation(
        account.email,
        await resendInvite({ db, mailer, siteOrigin, accountId: account.id, record }),
      )
    if (command !== 'resend') console.log(`${command}: done for ${account.email}`)
  }
} catch (error) {
  console.error(error instanceof AppError ? error.message : error)
  process.exitCode = 1
} finally {
  await db.destroy()
}

/** add's options as an invitation; a missing or wrong one is a usage error. */
function parseAddArguments() {
  try {
    return parseAccountInput(
      {
        email: values.email,
        name: values.name,
        role: values.role,
        apps: (values.app ?? []).map((app) => ({ app, canExport: values.export ?? false })),
      },
      new Set(forms.keys()),
    )
  } catch (error) {
    return usage((error as Error).message)
  }
}

/** Where the link went, never the link: a terminal's output ends up in logs. */
function reportInvitation(email: string, emailed: boolean): void {
  if (emailed) {
    console.log(`Invited ${email}: the one-time link (48 hours) went to ${mailer.destination}`)
    return
  }
  console.error(
    `The account ${email} exists but its invitation could not be sent through ${mailer.destination}: ` +
      'check SMTP_URL, then run npm run staff -- resend --email …',
  )
  process.exitCode = 1
}
