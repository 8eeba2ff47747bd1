import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Duplicate screenshots across claimants (server/duplicates/). A trigger queues every new claim in
 * screenshot_checks, in the claim's own transaction, so a sweeper finds it however the claims' ids
 * commit; the sweeper hashes the file, records the hashes, the matches it finds, and removes the entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const idType = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('screenshot_checks')
    .addColumn('claim_id', idType, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    // epoch ms when the check is due (again); a sweeper holding it pushes this past its lease
    .addColumn('due_at', 'bigint', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('screenshot_checks_due').on('screenshot_checks').column('due_at').execute()

  await db.schema
    .createTable('screenshot_hashes')
    .addColumn('claim_id', idType, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    // 'hashed', or 'unreadable' (file missing or not decodable): never tried again
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text')
    .addColumn('perceptual_hash', 'text')
    .addColumn('checked_at', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('screenshot_hashes_sha256').on('screenshot_hashes').column('sha256').execute()

  // multi-index hashing: each 128-bit hash (the picture and its edge crops) split into six bands, each
  // indexed (with the variant: a crop is compared with whole pictures only); two hashes within the near
  // distance share a band exactly or but for one bit
  let table = db.schema
    .createTable('screenshot_hash_bands')
    .addColumn('claim_id', idType, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('variant', 'integer', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull())
  for (let band = 0; band < 6; band++)
    table = table.addColumn(`band${band}`, 'integer', (col) => col.notNull())
  await table.addPrimaryKeyConstraint('screenshot_hash_bands_pk', ['claim_id', 'variant']).execute()
  for (let band = 0; band < 6; band++) {
    await db.schema
      .createIndex(`screenshot_hash_bands_band${band}`)
      .on('screenshot_hash_bands')
      .columns([`band${band}`, 'variant'])
      .execute()
  }

  // one row each way: both claims are flagged and each lists the other
  await db.schema
    .createTable('screenshot_matches')
    .addColumn('claim_id', idType, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('other_claim_id', idType, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    // 'exact' (the same bytes) or 'near' (the same picture re-compressed, scaled or cropped)
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('distance', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('screenshot_matches_pk', ['claim_id', 'other_claim_id'])
    .execute()
  await db.schema
    .createIndex('screenshot_matches_other')
    .on('screenshot_matches')
    .column('other_claim_id')
    .execute()

  if (postgres) {
    await sql`
      CREATE FUNCTION screenshot_checks_queue() RETURNS trigger AS $$
      BEGIN
        INSERT INTO screenshot_checks (claim_id, due_at) SELECT id, 0 FROM new_rows;
        RETURN NULL;
      END
      $$ LANGUAGE plpgsql`.execute(db)
    await sql`
      CREATE TRIGGER screenshot_checks_queue AFTER INSERT ON claims
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION screenshot_checks_queue()`.execute(
      db,
    )
  } else {
    await sql`
      CREATE TRIGGER screenshot_checks_queue AFTER INSERT ON claims
      BEGIN INSERT INTO screenshot_checks (claim_id, due_at) VALUES (new.id, 0); END`.execute(db)
  }
  // the claims already there are checked too
  await sql`INSERT INTO screenshot_checks (claim_id, due_at) SELECT id, 0 FROM claims`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await sql`DROP TRIGGER screenshot_checks_queue${postgres ? sql` ON claims` : sql``}`.execute(db)
  if (postgres) await sql`DROP FUNCTION screenshot_checks_queue()`.execute(db)
  for (const table of [
    'screenshot_matches',
    'screenshot_hash_bands',
    'screenshot_hashes',
    'screenshot_checks',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
