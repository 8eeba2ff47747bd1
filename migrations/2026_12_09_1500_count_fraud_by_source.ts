import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The Funnel page's fraud rate per source: funnel_days (migration 2026_11_29_1200) counts, per source,
 * app and UTC day, also the claims with a fraud score and of those the held ones (at or below their
 * app's hold threshold, not cleared as "Not fraud"), kept by triggers as a score is written or cleared,
 * so the page sums the counters it reads already rather than scanning the claims. fraud_holds holds
 * each app's hold threshold, which the server writes at start-up from its fraud config
 * (server/fraud/fraud-holds.ts; a trigger cannot read the config) and which recounts an app's held
 * claims when it changes; until then no claim counts as held.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fraud_holds')
    .addColumn('app', 'text', (col) => col.primaryKey())
    .addColumn('hold', 'integer', (col) => col.notNull())
    .execute()
  for (const column of ['scored', 'held']) {
    await db.schema
      .alterTable('funnel_days')
      .addColumn(column, 'bigint', (col) => col.notNull().defaultTo(0))
      .execute()
  }
  const postgres = isPostgresDb(db)
  if (postgres) await createPostgresTriggers(db)
  else await createSqliteTriggers(db)
  const day = postgres
    ? sql.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
    : sql.raw('substr(created_at, 1, 10)')
  // the claims scored already (each day's row is there: the claim counted in it); none is held until
  // the server writes the thresholds
  await sql`
    INSERT INTO funnel_days (source, app, day, scored)
    SELECT source, app, ${day}, count(*) FROM claims WHERE fraud_score IS NOT NULL
    GROUP BY source, app, ${day}
    ON CONFLICT (source, app, day) DO UPDATE SET scored = excluded.scored`.execute(db)
}

/** 1 while the claim is held: scored at or below its app's hold, not cleared. */
const HELD = (row: string) => `CASE WHEN ${row}.fraud_score IS NOT NULL AND ${row}.fraud_cleared_at IS NULL
  AND ${row}.fraud_score <= (SELECT hold FROM fraud_holds WHERE fraud_holds.app = ${row}.app) THEN 1 ELSE 0 END`
const SCORED = (row: string) => `CASE WHEN ${row}.fraud_score IS NOT NULL THEN 1 ELSE 0 END`

/**
 * SQLite: a row trigger per change that counts, each an upsert of the row's counter. A claim is written
 * unscored (the score job writes its score after), so an insert counts nothing and has no trigger here:
 * the claim's path pays nothing for these counters.
 */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const count = (row: 'new' | 'old', sign: '+' | '-') => `
      INSERT INTO funnel_days (source, app, day, scored, held)
      SELECT ${row}.source, ${row}.app, substr(${row}.created_at, 1, 10), ${sign}1, ${sign}(${HELD(row)})
      WHERE ${row}.fraud_score IS NOT NULL
      ON CONFLICT (source, app, day) DO UPDATE SET
        scored = scored + excluded.scored,
        held = held + excluded.held;`
  await sql
    .raw(
      `CREATE TRIGGER funnel_fraud_delete AFTER DELETE ON claims WHEN old.fraud_score IS NOT NULL
      BEGIN ${count('old', '-')} END`,
    )
    .execute(db)
  // only a change the counters see: a score scored again to the same standing touches none
  await sql
    .raw(
      `CREATE TRIGGER funnel_fraud_update AFTER UPDATE OF fraud_score, fraud_cleared_at, source, app, created_at ON claims
      WHEN (${SCORED('old')}) <> (${SCORED('new')}) OR (${HELD('old')}) <> (${HELD('new')})
        OR ((old.fraud_score IS NOT NULL OR new.fraud_score IS NOT NULL)
          AND (old.source IS NOT new.source OR old.app IS NOT new.app OR old.created_at IS NOT new.created_at))
      BEGIN ${count('old', '-')} ${count('new', '+')} END`,
    )
    .execute(db)
}

/**
 * PostgreSQL: statement triggers over the transition tables (one counter update per statement), the
 * counters touched in key order so concurrent statements lock them alike; an update's rows count only
 * where a counted value changed. As in SQLite, an insert has none.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  const counted = (rows: string, sign: '+' | '-') => `
    SELECT r.source, r.app, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
      ${sign}1 AS scored, ${sign}(${HELD('r')}) AS held
    FROM ${rows} r WHERE r.fraud_score IS NOT NULL`
  const changed = (side: 'o' | 'n') => `(SELECT ${side}.* FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (${SCORED('o')}) <> (${SCORED('n')}) OR (${HELD('o')}) <> (${HELD('n')})
      OR ((o.fraud_score IS NOT NULL OR n.fraud_score IS NOT NULL)
        AND (o.source IS DISTINCT FROM n.source OR o.app IS DISTINCT FROM n.app
          OR o.created_at IS DISTINCT FROM n.created_at)))`
  const apply = (changes: string) => `
    INSERT INTO funnel_days AS f (source, app, day, scored, held)
    SELECT source, app, day, sum(scored), sum(held) FROM (${changes}) c
    GROUP BY 1, 2, 3 HAVING sum(scored) <> 0 OR sum(held) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (source, app, day) DO UPDATE SET
      scored = f.scored + excluded.scored,
      held = f.held + excluded.held;`
  await sql
    .raw(
      `CREATE FUNCTION funnel_fraud_apply() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN ${apply(counted('old_rows', '-'))}
        ELSE ${apply(`${counted(changed('o'), '-')} UNION ALL ${counted(changed('n'), '+')}`)}
        END IF;
        RETURN NULL;
      END;
      $$ LANGUAGE plpgsql`,
    )
    .execute(db)
  for (const [name, event, ref] of [
    ['funnel_fraud_delete', 'DELETE', 'OLD TABLE AS old_rows'],
    ['funnel_fraud_update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ]) {
    await sql
      .raw(
        `CREATE TRIGGER ${name} AFTER ${event} ON claims REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION funnel_fraud_apply()`,
      )
      .execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  for (const trigger of ['funnel_fraud_delete', 'funnel_fraud_update']) {
    await sql.raw(`DROP TRIGGER ${trigger}${postgres ? ' ON claims' : ''}`).execute(db)
  }
  if (postgres) await sql`DROP FUNCTION funnel_fraud_apply()`.execute(db)
  for (const column of ['held', 'scored'])
    await db.schema.alterTable('funnel_days').dropColumn(column).execute()
  await db.schema.dropTable('fraud_holds').execute()
}
