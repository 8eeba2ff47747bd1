import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { EXPORT_PAGE_SIZE, keysetPages } from '../db/keyset-pages.ts'

export async function findIntakePage(
  db: Kysely<Database>,
  { page, pageSize }: { page: number; pageSize: number },
) {
  const [rows, totalRow] = await Promise.all([
    db
      .selectFrom('form_submissions')
      .select([
        'id',
        'created_at',
        'first_name',
        'last_name',
        'email',
        'phone',
        'cash_advance_apps',
        'signature',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('form_submissions')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(totalRow.total) }
}

/**
 * Every intake case with its intake and whether the app's Step 2 claim exists (same phone), newest
 * first, in keyset pages so memory stays flat.
 */
export function findIntakeCaseExportPages(db: Kysely<Database>) {
  return keysetPages((beforeId) =>
    db
      .selectFrom('intake_cases')
      .innerJoin('form_submissions', 'form_submissions.id', 'intake_cases.original_submission_id')
      .leftJoin('claims', (join) =>
        join
          .onRef('claims.app', '=', 'intake_cases.app')
          .onRef('claims.phone_number', '=', 'intake_cases.phone'),
      )
      .select([
        'intake_cases.id as id',
        'intake_cases.app as app',
        'intake_cases.first_name as first_name',
        'intake_cases.last_name as last_name',
        'intake_cases.email as email',
        'intake_cases.phone as phone',
        'intake_cases.created_at as created_at',
        'form_submissions.cash_advance_apps as cash_advance_apps',
        'claims.id as claim_id',
      ])
      .where('intake_cases.id', '<', beforeId)
      .orderBy('intake_cases.id', 'desc')
      .limit(EXPORT_PAGE_SIZE)
      .execute(),
  )
}
