/**
 * SQLite's search index (claims_search) is partitioned by app: an app's entries have the rowids
 * start … start + SEARCH_PARTITION - 1, where start is the app's number × SEARCH_PARTITION. The
 * migration that builds the partitions and the queries that read them share this one size: 2^40 leaves
 * room for a trillion claim ids per app, and 2^23 apps, inside SQLite's 64-bit rowid.
 */
export const SEARCH_PARTITION = 2 ** 40
