import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The dashboards' review filters and counts at a million claims.
 *
 * - claims_app_status: an app's claims in one review status, newest first, so that the list filtered
 *   by status is an index walk (and, beside a search term, an index the planner can combine).
 * - claims_app_assignee: an app's assigned claims by reviewer, newest first ("Assigned to me"); a
 *   partial index, so a new (unassigned) claim's insert does not maintain it.
 * - claim_app_statuses: each app's count of claims per review status, kept by triggers, so that the
 *   status cards and a status filter's count are read, not counted. The status new claims start in
 *   (the column's default, 'received') is not kept: it is the app's total less the others, so a new
 *   claim's insert touches no counter here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createIndex('claims_app_status')
    .on('claims')
    .columns(['app', 'review_status', 'created_at', 'id'])
    .execute()
  await sql`
    CREATE INDEX claims_app_assignee ON claims (app, assignee_id, created_at, id)
    WHERE assignee_id IS NOT NULL`.execute(db)
  await db.schema
    .createTable('claim_app_statuses')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('claims', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('claim_app_statuses_pk', ['app', 'status'])
    .execute()
  if (postgres) await createPostgresTriggers(db)
  else await createSqliteTriggers(db)
  await sql`
    INSERT INTO claim_app_statuses (app, status, claims)
    SELECT app, review_status, count(*) FROM claims WHERE review_status <> 'received'
    GROUP BY app, review_status`.execute(db)
}

/** SQLite: a row trigger per change that leaves or enters a kept status. */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const add = (row: 'new' | 'old', sign: '+' | '-') =>
    sql.raw(`
      INSERT INTO claim_app_statuses (app, status, claims)
      SELECT ${row}.app, ${row}.review_status, ${sign}1 WHERE ${row}.review_status <> 'received'
      ON CONFLICT (app, status) DO UPDATE SET claims = claims + excluded.claims;`)
  await sql`
    CREATE TRIGGER claim_status_insert AFTER INSERT ON claims WHEN new.review_status <> 'received'
    BEGIN ${add('new', '+')} END`.execute(db)
  await sql`
    CREATE TRIGGER claim_status_delete AFTER DELETE ON claims WHEN old.review_status <> 'received'
    BEGIN ${add('old', '-')} END`.execute(db)
  await sql`
    CREATE TRIGGER claim_status_update AFTER UPDATE OF app, review_status ON claims
    WHEN old.review_status IS NOT new.review_status OR old.app IS NOT new.app
    BEGIN ${add('old', '-')} ${add('new', '+')} END`.execute(db)
}

/**
 * PostgreSQL: a row trigger for a move (one claim at a time) and for the rare insert in another status,
 * touching its counters in (app, status) order so that two moves never wait on each other in a cycle; a
 * statement trigger over the removed rows for a purge, which can remove many at once.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION claim_status_count() RETURNS trigger AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        INSERT INTO claim_app_statuses AS s (app, status, claims)
        SELECT change.app, change.status, sum(change.claims)
        FROM (VALUES (OLD.app, OLD.review_status, -1), (NEW.app, NEW.review_status, 1))
          AS change (app, status, claims)
        WHERE change.status <> 'received'
        GROUP BY change.app, change.status ORDER BY change.app, change.status
        ON CONFLICT (app, status) DO UPDATE SET claims = s.claims + excluded.claims;
      ELSE
        INSERT INTO claim_app_statuses AS s (app, status, claims) VALUES (NEW.app, NEW.review_status, 1)
        ON CONFLICT (app, status) DO UPDATE SET claims = s.claims + excluded.claims;
      END IF;
      RETURN NULL;
    END;
    $$ LANGUAGE plpgsql`.execute(db)
  await sql`
    CREATE TRIGGER claim_status_insert AFTER INSERT ON claims FOR EACH ROW
    WHEN (NEW.review_status <> 'received') EXECUTE FUNCTION claim_status_count()`.execute(db)
  await sql`
    CREATE TRIGGER claim_status_update AFTER UPDATE OF app, review_status ON claims FOR EACH ROW
    WHEN (OLD.review_status IS DISTINCT FROM NEW.review_status OR OLD.app IS DISTINCT FROM NEW.app)
    EXECUTE FUNCTION claim_status_count()`.execute(db)
  await sql`
    CREATE FUNCTION claim_status_uncount() RETURNS trigger AS $$
    BEGIN
      UPDATE claim_app_statuses AS s SET claims = s.claims - g.removed
      FROM (
        SELECT app, review_status, count(*) AS removed FROM old_rows WHERE review_status <> 'received'
        GROUP BY app, review_status ORDER BY app, review_status
      ) AS g
      WHERE s.app = g.app AND s.status = g.review_status;
      RETURN NULL;
    END;
    $$ LANGUAGE plpgsql`.execute(db)
  await sql`
    CREATE TRIGGER claim_status_uncount AFTER DELETE ON claims
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION claim_status_uncount()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const triggers = postgres
    ? ['claim_status_insert', 'claim_status_update', 'claim_status_uncount']
    : ['claim_status_insert', 'claim_status_delete', 'claim_status_update']
  for (const trigger of triggers) {
    await sql`DROP TRIGGER ${sql.id(trigger)}${postgres ? sql` ON claims` : sql``}`.execute(db)
  }
  if (postgres) {
    await sql`DROP FUNCTION claim_status_count()`.execute(db)
    await sql`DROP FUNCTION claim_status_uncount()`.execute(db)
  }
  await db.schema.dropTable('claim_app_statuses').execute()
  await sql`DROP INDEX claims_app_assignee`.execute(db)
  await sql`DROP INDEX claims_app_status`.execute(db)
}
