/** The run's migrated database, which every test database on PostgreSQL starts as a copy of. */
export const MIGRATED_TEMPLATE = 'test_migrated_template'
