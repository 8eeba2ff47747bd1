/** How many rows an export reads at a time: large enough to amortise a query, small enough for flat memory. */
export const EXPORT_PAGE_SIZE = 2500

type Id = number | string | bigint

/**
 * Every row a query gives, newest id first, EXPORT_PAGE_SIZE rows at a time: `fetchPage(beforeId)`
 * answers the page of rows with ids below beforeId, newest first; `idOf` reads a row's id (its `id`
 * unless told). Keyset pages hold no cursor or connection between pages, cost the same at any depth,
 * and keep memory flat.
 */
export function keysetPages<Row extends { id: Id }>(
  fetchPage: (beforeId: number) => Promise<Row[]> | Row[],
): AsyncGenerator<Row[]>
export function keysetPages<Row>(
  fetchPage: (beforeId: number) => Promise<Row[]> | Row[],
  idOf: (row: Row) => Id,
): AsyncGenerator<Row[]>
export async function* keysetPages<Row>(
  fetchPage: (beforeId: number) => Promise<Row[]> | Row[],
  idOf: (row: Row) => Id = (row) => (row as { id: Id }).id,
): AsyncGenerator<Row[]> {
  let beforeId = Number.MAX_SAFE_INTEGER
  for (;;) {
    const rows = await fetchPage(beforeId)
    if (rows.length > 0) yield rows
    if (rows.length < EXPORT_PAGE_SIZE) return
    beforeId = Number(idOf(rows.at(-1)!))
  }
}
