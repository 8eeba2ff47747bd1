import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Where claims and intakes come from (src/attribution.ts): each keeps its campaign source (utm_source,
 * "(none)" without one) and the whole attribution as JSON. funnel_days counts, per source, app and UTC
 * day, the intakes (app '') and the Step 2 claims with those confirmed and approved (Approved or Filed),
 * kept by triggers in the same transaction as the rows, so the Funnel page sums a few hundred counters
 * rather than scanning a million claims, as claim_app_days does for the dashboards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  for (const table of ['claims', 'form_submissions']) {
    await db.schema
      .alterTable(table)
      .addColumn('source', 'text', (col) => col.notNull().defaultTo('(none)'))
      .execute()
    await db.schema.alterTable(table).addColumn('attribution', 'text').execute()
  }
  await db.schema
    .createTable('funnel_days')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('intakes', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('claims', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('confirmed', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('approved', 'bigint', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('funnel_days_pk', ['source', 'app', 'day'])
    .execute()
  // the page asks by day range first
  await db.schema.createIndex('funnel_days_day').on('funnel_days').columns(['day', 'source', 'app']).execute()
  if (postgres) await createPostgresTriggers(db)
  else await createSqliteTriggers(db)
  const day = (column: string) =>
    postgres
      ? sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
      : sql.raw(`substr(${column}, 1, 10)`)
  await sql`
    INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
    SELECT source, app, ${day('created_at')}, 0, count(*),
      sum(CASE WHEN confirmed_at IS NOT NULL THEN 1 ELSE 0 END),
      sum(CASE WHEN review_status IN ('approved', 'filed') THEN 1 ELSE 0 END)
    FROM claims GROUP BY source, app, ${day('created_at')}`.execute(db)
  await sql`
    INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
    SELECT source, '', ${day('created_at')}, count(*), 0, 0, 0
    FROM form_submissions GROUP BY source, ${day('created_at')}`.execute(db)
}

const CONFIRMED = (row: string) => `CASE WHEN ${row}.confirmed_at IS NOT NULL THEN 1 ELSE 0 END`
const APPROVED = (row: string) => `CASE WHEN ${row}.review_status IN ('approved', 'filed') THEN 1 ELSE 0 END`

/** SQLite: a row trigger per change, each an upsert of the row's counter. */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const claim = (row: 'new' | 'old', sign: '+' | '-') => `
      INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
      VALUES (${row}.source, ${row}.app, substr(${row}.created_at, 1, 10), 0, ${sign}1,
        ${sign}(${CONFIRMED(row)}), ${sign}(${APPROVED(row)}))
      ON CONFLICT (source, app, day) DO UPDATE SET
        claims = claims + excluded.claims,
        confirmed = confirmed + excluded.confirmed,
        approved = approved + excluded.approved;`
  const intake = (row: 'new' | 'old', sign: '+' | '-') => `
      INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
      VALUES (${row}.source, '', substr(${row}.created_at, 1, 10), ${sign}1, 0, 0, 0)
      ON CONFLICT (source, app, day) DO UPDATE SET intakes = intakes + excluded.intakes;`
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
        OR (${APPROVED('old')}) <> (${APPROVED('new')})
      BEGIN ${claim('old', '-')} ${claim('new', '+')} END`,
    )
    .execute(db)
  await sql
    .raw(
      `CREATE TRIGGER funnel_intake_insert AFTER INSERT ON form_submissions BEGIN ${intake('new', '+')} END`,
    )
    .execute(db)
  await sql
    .raw(
      `CREATE TRIGGER funnel_intake_delete AFTER DELETE ON form_submissions BEGIN ${intake('old', '-')} END`,
    )
    .execute(db)
}

/**
 * An update's rows (their old `o` or new `n` side) whose counted values changed: a move that leaves the
 * claim approved, or any other column's change, touches no counter.
 */
function changed(side: 'o' | 'n'): string {
  return `(SELECT ${side}.* FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.source IS DISTINCT FROM n.source OR o.app IS DISTINCT FROM n.app
      OR o.created_at IS DISTINCT FROM n.created_at
      OR (o.confirmed_at IS NULL) <> (n.confirmed_at IS NULL)
      OR (${APPROVED('o')}) <> (${APPROVED('n')}))`
}

/**
 * PostgreSQL: statement triggers over the transition tables (one counter update per statement, not per
 * row), the counters touched in key order so concurrent statements lock them alike.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  const claims = (rows: string, sign: '+' | '-') => `
      INSERT INTO funnel_days AS f (source, app, day, intakes, claims, confirmed, approved)
      SELECT r.source, r.app, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, ${sign}count(*),
        ${sign}sum(${CONFIRMED('r')}), ${sign}sum(${APPROVED('r')})
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
  const intakes = (rows: string, sign: '+' | '-') => `
      INSERT INTO funnel_days AS f (source, app, day, intakes, claims, confirmed, approved)
      SELECT r.source, '', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ${sign}count(*), 0, 0, 0
      FROM ${rows} r GROUP BY 1, 3 ORDER BY 1, 3
      ON CONFLICT (source, app, day) DO UPDATE SET intakes = f.intakes + excluded.intakes;`
  await sql
    .raw(
      `CREATE FUNCTION funnel_intakes_apply() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN ${intakes('old_rows', '-')}
        ELSE ${intakes('new_rows', '+')}
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
  for (const [name, event, ref] of [
    ['funnel_intake_insert', 'INSERT', 'NEW TABLE AS new_rows'],
    ['funnel_intake_delete', 'DELETE', 'OLD TABLE AS old_rows'],
  ]) {
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON form_submissions REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION funnel_intakes_apply()`,
      )
      .execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  for (const [trigger, table] of [
    ['funnel_claim_insert', 'claims'],
    ['funnel_claim_delete', 'claims'],
    ['funnel_claim_update', 'claims'],
    ['funnel_intake_insert', 'form_submissions'],
    ['funnel_intake_delete', 'form_submissions'],
  ]) {
    await sql.raw(`DROP TRIGGER ${trigger}${postgres ? ` ON ${table}` : ''}`).execute(db)
  }
  if (postgres) {
    await sql`DROP FUNCTION funnel_claims_apply()`.execute(db)
    await sql`DROP FUNCTION funnel_intakes_apply()`.execute(db)
  }
  await db.schema.dropTable('funnel_days').execute()
  for (const table of ['claims', 'form_submissions']) {
    await db.schema.alterTable(table).dropColumn('attribution').execute()
    await db.schema.alterTable(table).dropColumn('source').execute()
  }
}
