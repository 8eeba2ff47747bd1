import { sql, type Kysely, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ClaimFilter } from './claim-filters.ts'
import type { ClaimSearch } from './claim-list.ts'
import type { SearchTerm } from '../platform/search-term.ts'

/** More claims than one intake or one case number ever holds: the lookup stays a short index read. */
const MAX_EXACT_MATCHES = 100

/**
 * What a term names exactly, when it has the shape of an identifier: a claim's id ("42", "#42"), the
 * intake reference a claimant quotes ("IN-000042", the claims' intake_id) or a provider's case number
 * (letters, digits and dashes with at least one dash and one digit). Undefined for anything else.
 */
export function identifierOf(
  text: string,
): { id?: number; intakeId?: number; caseNumber?: string } | undefined {
  const reference = /^IN-?0*(\d{1,15})$/i.exec(text)
  if (reference) return { intakeId: Number(reference[1]) }
  const id = /^#?(\d{1,15})$/.exec(text)
  if (id) return { id: Number(id[1]) }
  if (/^[A-Za-z0-9]+(-[A-Za-z0-9]+)+$/.test(text) && /\d/.test(text) && text.length <= 64) {
    return { caseNumber: text }
  }
  return undefined
}

/**
 * The search with exact lookups first: a term shaped like an identifier that names claims of the app
 * lists those claims only (read by the primary key, claims_by_intake or claims_case_number); one that
 * names none is searched as text, so "5551234" still finds a phone number. The list, the export and a
 * bulk move of the filter all go through here, so they agree on which claims a term means.
 */
export function withExactLookups(db: Kysely<Database>, search: ClaimSearch): ClaimSearch {
  async function resolve<
    Query extends { app: string; term: SearchTerm | undefined; filters: readonly ClaimFilter[] },
  >(query: Query): Promise<Query> {
    const identifier = query.term && identifierOf(query.term.text)
    if (!identifier) return query
    const ids = await exactClaimIds(db, { app: query.app, ...identifier })
    if (ids.length === 0) return query
    return { ...query, term: undefined, filters: [...query.filters, idsFilter(ids)] }
  }
  return {
    async page(query) {
      return search.page(await resolve(query))
    },
    exportBody(query) {
      async function* chunks() {
        const body = search.exportBody(await resolve(query))
        // both databases' exports stream rendered chunks (sqlite-claim-search.ts, postgres-claim-search.ts)
        if (!('chunks' in body)) throw new Error('an export of pages cannot follow an exact lookup')
        yield* body.chunks
      }
      return { chunks: chunks() }
    },
    async matchingIds(query) {
      return search.matchingIds(await resolve(query))
    },
  }
}

/** The app's claims the identifier names, by one index lookup; empty when it names none. */
async function exactClaimIds(db: Kysely<Database>, lookup: ExactLookup): Promise<number[]> {
  const rows = await exactClaimIdsQuery(db, lookup).execute()
  return rows.map((row) => Number(row.id))
}

type ExactLookup = { app: string } & NonNullable<ReturnType<typeof identifierOf>>

/** The lookup's query, for the test that holds it to its index (tests/server/dashboard/claim-search-identifiers.test). */
export function exactClaimIdsQuery(db: Kysely<Database>, { app, id, intakeId, caseNumber }: ExactLookup) {
  const inApp = db.selectFrom('claims').select('claims.id').where('claims.app', '=', app)
  const named =
    id !== undefined
      ? inApp.where('claims.id', '=', id)
      : intakeId !== undefined
        ? inApp.where('claims.intake_id', '=', intakeId)
        : inApp.where('claims.case_number', '=', caseNumber ?? '')
  return named.orderBy('claims.id', 'desc').limit(MAX_EXACT_MATCHES)
}

/** The claims an exact lookup found, as a filter the list, export and bulk move already apply. */
function idsFilter(ids: readonly number[]): ClaimFilter {
  const holds = sql<SqlBool>`claims.id IN (${sql.join(ids)})`
  return { label: `claims ${ids.join(', ')}`, holds, listed: { holds, is: true } }
}
