/**
 * What the admin's audit endpoints answer (GET /api/staff/audit), shared by the server and the page.
 * @example const page: AuditPage = await fetchJson('/api/staff/audit?action=claim_view&from=2026-11-01')
 */

/** One staff action, as the audit page lists it. */
export interface AuditEntryView {
  id: number
  /** ISO 8601, UTC. */
  at: string
  /** The account that acted, when one could be named (a failed sign-in with an unknown e-mail names nobody). */
  accountId: number | null
  /** The account's name now; else the e-mail stored with the entry; else 'unknown'. */
  person: string
  /** The account's e-mail now, else the one stored with the entry. */
  email: string | null
  clientAddress: string
  app: string | null
  action: string
  detail: string | null
}

/** A choice of the Person filter. */
export interface AuditPerson {
  id: number
  name: string
  email: string
}

/** A choice of the App filter: an app that has entries, with its dashboard's name when it still has one. */
export interface AuditApp {
  app: string
  name: string
}

/** One page of the audit log, newest first, and the choices of its filters. */
export interface AuditPage {
  entries: AuditEntryView[]
  /** How many entries match the filters. */
  count: number
  page: number
  pageSize: number
  people: AuditPerson[]
  apps: AuditApp[]
  /** Every action that has entries. */
  actions: string[]
}

/** The filters, as query parameters: each left out for all. */
export interface AuditFilterParams {
  /** An account's id. */
  account?: string
  app?: string
  action?: string
  /** YYYY-MM-DD, UTC days, inclusive. */
  from?: string
  to?: string
}
