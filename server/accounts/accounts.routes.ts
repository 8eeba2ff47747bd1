import express, { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type {
  InviteAnswer,
  MyApps,
  StaffAccountList,
  StaffAccountSummary,
} from '../../src/api/staff-accounts.ts'
import { canExportApp, canSeeApp } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { linkOrigin } from '../public-origin.ts'
import { actorOf, type AuditAction, type RecordAudit } from '../audit/audit-log.ts'
import { adminOnly, staffAccountOf } from '../staff/require-staff.ts'
import { parseAccess, parseAccountInput } from './account-input.ts'
import { requireMailer, type StaffMailer } from '../staff/staff-mailer.ts'
import {
  accountSummary,
  changeAccess,
  changeDisabled,
  inviteAccount,
  listAccounts,
  resendInvite,
  resetAccountTwoFactor,
  type AccountChange,
} from './manage-accounts.ts'
import { changeOwnPassword } from './own-password.ts'

const NO_STORE = 'private, no-store'

/**
 * Admins manage accounts here (list, invite, re-send, role and apps, disable, reset two-factor); every
 * account reads its own dashboards and changes its own password. Mounted after requireStaff. Account
 * routes name `:accountId`, not `:id`, which the access test reads as a claim's.
 */
export function accountRoutes({
  db,
  forms,
  audit,
  mailer,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  audit: RecordAudit
  mailer: StaffMailer | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  const slugs = new Set(forms.keys())
  const apps = [...forms.values()].map(({ slug, displayName }) => ({ slug, name: displayName }))
  const json = express.json({ limit: '8kb' })
  const recorder = (req: Request, res: Response) => (action: AuditAction, detail: string) =>
    audit({ ...actorOf(req, res), action, detail })
  const change = (req: Request, res: Response): AccountChange => ({
    db,
    actorId: staffAccountOf(res).id,
    accountId: parseAccountId(req.params.accountId),
    record: recorder(req, res),
  })
  const sendSummary = async (res: Response, id: number) =>
    res.set('Cache-Control', NO_STORE).json((await accountSummary(db, id)) satisfies StaffAccountSummary)

  router.get('/api/staff/my-apps', (_req, res) => {
    const account = staffAccountOf(res)
    res.set('Cache-Control', NO_STORE).json({
      apps: apps
        .filter(({ slug }) => canSeeApp(account, slug))
        .map((app) => ({ ...app, canExport: canExportApp(account, app.slug) })),
    } satisfies MyApps)
  })

  router.post('/api/staff/account/password', json, async (req, res) => {
    await changeOwnPassword({ db, req, res, body: req.body, record: recorder(req, res), mailer })
    res.status(204).end()
  })

  router.get('/api/staff/accounts', adminOnly, async (_req, res) => {
    res
      .set('Cache-Control', NO_STORE)
      .json({ accounts: await listAccounts(db), apps } satisfies StaffAccountList)
  })

  router.post('/api/staff/accounts', adminOnly, json, async (req, res) => {
    const input = parseAccountInput(req.body, slugs)
    const { id, emailed } = await inviteAccount({
      db,
      mailer: requireMailer(mailer, 'invitations'),
      siteOrigin: linkOrigin(req),
      input,
      record: recorder(req, res),
    })
    res.status(201).json({ account: await accountSummary(db, id), emailed } satisfies InviteAnswer)
  })

  router.post('/api/staff/accounts/:accountId/invite', adminOnly, async (req, res) => {
    const { accountId, record } = change(req, res)
    const emailed = await resendInvite({
      db,
      mailer: requireMailer(mailer, 'invitations'),
      siteOrigin: linkOrigin(req),
      accountId,
      record,
    })
    res.json({ account: await accountSummary(db, accountId), emailed } satisfies InviteAnswer)
  })

  router.put('/api/staff/accounts/:accountId/access', adminOnly, json, async (req, res) => {
    const target = change(req, res)
    await changeAccess(target, parseAccess(req.body, slugs))
    await sendSummary(res, target.accountId)
  })

  router.post('/api/staff/accounts/:accountId/disable', adminOnly, async (req, res) => {
    const target = change(req, res)
    await changeDisabled(target, true)
    await sendSummary(res, target.accountId)
  })

  router.post('/api/staff/accounts/:accountId/enable', adminOnly, async (req, res) => {
    const target = change(req, res)
    await changeDisabled(target, false)
    await sendSummary(res, target.accountId)
  })

  router.post('/api/staff/accounts/:accountId/reset-two-factor', adminOnly, async (req, res) => {
    const target = change(req, res)
    await resetAccountTwoFactor(target)
    await sendSummary(res, target.accountId)
  })
  return router
}

function parseAccountId(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,12}$/.test(value))
    throw new AppError('NOT_FOUND', {
      status: 404,
      message: `no staff account has the id "${String(value)}"`,
    })
  return Number(value)
}
