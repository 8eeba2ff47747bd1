import { AppError } from '../../src/app-error.ts'
import type { StaffAppAccess, StaffRole } from '../../src/api/staff.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const MAX_EMAIL_LENGTH = 320
const MAX_NAME_LENGTH = 200

export interface AccountInput {
  email: string
  name: string
  role: StaffRole
  apps: StaffAppAccess[]
}

/** An invitation's e-mail, name, role and apps, checked against the site's apps; 400 naming the problem. */
export function parseAccountInput(body: unknown, slugs: ReadonlySet<string>): AccountInput {
  const input = (body ?? {}) as Record<string, unknown>
  return {
    email: parseEmail(input.email),
    name: parseName(input.name),
    ...parseAccess(input, slugs),
  }
}

export function parseEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim() : ''
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email))
    throw badRequest('"email" must be an e-mail address, such as pat@firm.example')
  return email.toLowerCase()
}

export function parseName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (name === '' || name.length > MAX_NAME_LENGTH)
    throw badRequest(`"name" must be the person's name, 1 to ${MAX_NAME_LENGTH} characters`)
  return name
}

/** A role and its apps; an admin's apps are dropped (an admin sees every app). */
export function parseAccess(body: unknown, slugs: ReadonlySet<string>): Pick<AccountInput, 'role' | 'apps'> {
  const input = (body ?? {}) as Record<string, unknown>
  const role = input.role
  if (role !== 'admin' && role !== 'staff') throw badRequest('"role" must be "admin" or "staff"')
  const apps = input.apps ?? []
  if (!Array.isArray(apps)) throw badRequest('"apps" must be a list of { app, canExport, canDecide, canPay }')
  const parsed: StaffAppAccess[] = []
  for (const access of apps as unknown[]) {
    const {
      app,
      canExport = false,
      canDecide = false,
      canPay = false,
    } = (access ?? {}) as { app?: unknown; canExport?: unknown; canDecide?: unknown; canPay?: unknown }
    if (typeof app !== 'string' || !slugs.has(app))
      throw badRequest(`unknown app "${String(app)}": use one of ${[...slugs].join(', ')}`)
    if (typeof canExport !== 'boolean') throw badRequest(`"canExport" of "${app}" must be true or false`)
    if (typeof canDecide !== 'boolean') throw badRequest(`"canDecide" of "${app}" must be true or false`)
    if (typeof canPay !== 'boolean') throw badRequest(`"canPay" of "${app}" must be true or false`)
    if (parsed.some((each) => each.app === app)) throw badRequest(`app "${app}" is listed twice`)
    parsed.push({
      app,
      canExport,
      ...(canDecide ? { canDecide: true } : {}),
      ...(canPay ? { canPay: true } : {}),
    })
  }
  return { role, apps: role === 'admin' ? [] : parsed.sort((a, b) => a.app.localeCompare(b.app)) }
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
