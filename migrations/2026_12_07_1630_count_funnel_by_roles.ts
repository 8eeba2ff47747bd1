import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The funnel's "approved" follows the review config's roles rather than status names: review_roles
 * holds each app's roles (the server writes them at start-up, server/lifecycle/review-roles.ts), and the
 * funnel_days triggers count a claim as approved while its status is its app's readyToFile or filed
 * status. The triggers are otherwise those of migration 2026_11_29_1200, which this replaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_roles')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('review_roles_pk', ['app', 'role'])
    .execute()
  await replaceClaimTriggers(db, APPROVED)
}

/** SQL that is 1 while the claim `row` ('new', 'old', a table alias) counts as approved, else 0. */
export type Approved = (row: string) => string

/**
 * 1 while the claim's status is its app's status for one of `roles` (src/review-config.ts
 * approvedStatuses names the same roles).
 */
export function approvedByRoles(roles: readonly string[]): Approved {
  const listed = roles.map((role) => `'${role}'`).join(', ')
  return (row) => `CASE WHEN EXISTS (SELECT 1 FROM review_roles role_of
  WHERE role_of.app = ${row}.app AND role_of.role IN (${listed})
    AND role_of.status = ${row}.review_status) THEN 1 ELSE 0 END`
}

/** This migration's approved: ready to file, or filed. */
export const APPROVED = approvedByRoles(['readyToFile', 'filed'])

/** Drops the funnel's claim triggers and makes them again, counting `approved` as approved. */
export async function replaceClaimTriggers(db: Kysely<unknown>, approved: Approved): Promise<void> {
  await dropClaimTriggers(db)
  if (isPostgresDb(db)) await createPostgresTriggers(db, approved)
  else await createSqliteTriggers(db, approved)
}

/** As migration 2026_11_29_1200 had it: down() puts its triggers back. */
const APPROVED_BEFORE: Approved = (row) =>
  `CASE WHEN ${row}.review_status IN ('approved', 'filed') THEN 1 ELSE 0 END`

const CONFIRMED = (row: string) => `CASE WHEN ${row}.confirmed_at IS NOT NULL THEN 1 ELSE 0 END`

async function dropClaimTriggers(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  for (const trigger of ['funnel_claim_insert', 'funnel_claim_delete', 'funnel_claim_update']) {
    await sql.raw(`DROP TRIGGER ${trigger}${postgres ? ' ON claims' : ''}`).execute(db)
  }
  if (postgres) await sql`DROP FUNCTION funnel_claims_apply()`.execute(db)
}

/** SQLite: a row trigger per change, each an upsert of the row's counter. */
async function createSqliteTriggers(db: Kysely<unknown>, approved: Approved): Promise<void> {
  const claim = (row: 'new' | 'old', sign: '+' | '-') => `
      INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
      VALUES (${row}.source, ${row}.app, substr(${row}.created_at, 1, 10), 0, ${sign}1,
        ${sign}(${CONFIRMED(row)}), ${sign}(${approved(row)}))
      ON CONFLICT (source, app, day) DO UPDATE SET
        claims = claims + excluded.claims,
        confirmed = confirmed + excluded.confirmed,
        approved = approved + excluded.approved;`
  await sql
    .raw(`CREATE TRIGGER funnel_claim_insert AFTER INSERT ON claims BEGIN ${claim('new', '+')} END`)
    .execute(db)
  await sql
    .raw(`CREATE TRIGGER funnel_claim_delete AFTER DELETE ON claims BEGIN ${claim('old', '-')} END`)
    .execute(db)
  // only a change the funnel counts: not every move's other columns
  await sql
    .raw(
      `CREATE TRIGGER funnel_claim_update AFTER UPDATE OF source, app, created_at, confirmed_at, review_status ON claims
      WHEN old.source IS NOT new.source OR old.app IS NOT new.app OR old.created_at IS NOT new.created_at
        OR (old.confirmed_at IS NULL) <> (new.confirmed_at IS NULL)
        OR (${approved('old')}) <> (${approved('new')})
      BEGIN ${claim('old', '-')} ${claim('new', '+')} END`,
    )
    .execute(db)
}

/**
 * PostgreSQL: statement triggers over the transition tables (one counter update per statement, not per
 * row), the counters touched in key order so concurrent statements lock them alike. An update's rows
 * count only where a counted value changed: a move that leaves the claim approved touches no counter.
 */
async function createPostgresTriggers(db: Kysely<unknown>, approved: Approved): Promise<void> {
  const changed = (side: 'o' | 'n') => `(SELECT ${side}.* FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.source IS DISTINCT FROM n.source OR o.app IS DISTINCT FROM n.app
      OR o.created_at IS DISTINCT FROM n.created_at
      OR (o.confirmed_at IS NULL) <> (n.confirmed_at IS NULL)
      OR (${approved('o')}) <> (${approved('n')}))`
  const claims = (rows: string, sign: '+' | '-') => `
      INSERT INTO funnel_days AS f (source, app, day, intakes, claims, confirmed, approved)
      SELECT r.source, r.app, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, ${sign}count(*),
        ${sign}sum(${CONFIRMED('r')}), ${sign}sum(${approved('r')})
      FROM ${rows} r GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (source, app, day) DO UPDATE SET
        claims = f.claims + excluded.claims,
        confirmed = f.confirmed + excluded.confirmed,
        approved = f.approved + excluded.approved;`
  await sql
    .raw(
      `CREATE FUNCTION funnel_claims_apply() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${claims('new_rows', '+')}
        ELSIF TG_OP = 'DELETE' THEN ${claims('old_rows', '-')}
        ELSE ${claims(changed('o'), '-')} ${claims(changed('n'), '+')}
        END IF;
        RETURN NULL;
      END;
      $$ LANGUAGE plpgsql`,
    )
    .execute(db)
  for (const [name, event, ref] of [
    ['funnel_claim_insert', 'INSERT', 'NEW TABLE AS new_rows'],
    ['funnel_claim_delete', 'DELETE', 'OLD TABLE AS old_rows'],
    ['funnel_claim_update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ]) {
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON claims REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION funnel_claims_apply()`,
      )
      .execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceClaimTriggers(db, APPROVED_BEFORE)
  await db.schema.dropTable('review_roles').execute()
}
