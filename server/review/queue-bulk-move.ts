import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { BulkMoveStarted } from '../../src/api/bulk-moves.ts'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { BulkMove } from './bulk-move-selection.ts'

/** Who asks for a bulk move: each claim's move is theirs. */
export interface BulkMover {
  accountId: number
  actor: string
  clientAddress: string
  linkOrigin: string
}

/**
 * Queues a bulk move of the claims `ids` selects (bulk-move.job.ts moves them): the selection is fixed
 * now, its claims' ids stored with the job in the job's transaction. A selection of no claim is a 400.
 */
export function queueBulkMove(
  db: Kysely<Database>,
  {
    app,
    move,
    ids,
    by,
  }: {
    app: string
    move: Omit<BulkMove, 'selection'>
    ids: RawBuilder<{ id: number }>
    by: BulkMover
  },
): Promise<BulkMoveStarted> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('bulk_moves')
        .values({
          app,
          to_status: move.to,
          reason: move.reason ?? null,
          reason_text: move.reasonText ?? null,
          note: move.note ?? null,
          account_id: by.accountId,
          actor: by.actor,
          client_address: by.clientAddress,
          link_origin: by.linkOrigin,
          created_at: Date.now(),
          status: 'queued',
          total: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const inserted = await trx
        .insertInto('bulk_move_claims')
        .columns(['bulk_move_id', 'claim_id'])
        .expression((eb) =>
          eb
            .selectFrom(ids.as('selected'))
            .select([sql<number>`CAST(${Number(id)} AS bigint)`.as('bulk_move_id'), 'selected.id'])
            .where('selected.id', 'is not', null),
        )
        .executeTakeFirst()
      const total = Number(inserted.numInsertedOrUpdatedRows ?? 0)
      if (total === 0) {
        throw new AppError('BAD_REQUEST', {
          status: 400,
          message: 'no claim is selected: check rows or change the filter, then try again',
        })
      }
      await trx.updateTable('bulk_moves').set({ total }).where('id', '=', id).execute()
      return { id: Number(id), total }
    }),
  )
}
