import type { Kysely } from 'kysely'

/** Webhooks: filled in by the webhooks change. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
