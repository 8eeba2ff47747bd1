import type { AuditFilterParams, AuditPage } from '../../../src/api/staff-audit.ts'
import { fetchJson } from '../../http.ts'

export type { AuditEntryView, AuditFilterParams, AuditPage } from '../../../src/api/staff-audit.ts'

/** One page of the audit log, newest first, with the choices of its filters. */
export function fetchAuditPage({
  filters,
  page,
  signal,
}: {
  filters: AuditFilterParams
  page: number
  signal?: AbortSignal
}): Promise<AuditPage> {
  return fetchJson(`/api/staff/audit?${auditParams(filters, { page: String(page) })}`, {
    signal,
    cache: 'no-store',
  })
}

/** The CSV of every entry the filters match. */
export function auditCsvUrl(filters: AuditFilterParams): string {
  return `/api/staff/audit/export.csv?${auditParams(filters)}`
}

function auditParams(filters: AuditFilterParams, more: Record<string, string> = {}): URLSearchParams {
  const chosen = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]))
  return new URLSearchParams({ ...Object.fromEntries(chosen), ...more })
}
