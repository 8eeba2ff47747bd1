/** How many rows an export reads at a time: large enough to amortise a query, small enough for flat memory. */
export const EXPORT_PAGE_SIZE = 2500

/**
 * Every row a query gives, newest id first, EXPORT_PAGE_SIZE rows at a time: `fetchPage(beforeId)`
 * answers the page of rows with ids below beforeId, newest first. Keyset pages hold no cursor or
 * connection between pages, cost the same at any depth, and keep memory flat.
 */
export async function* keysetPages<Row extends { id: number | string | bigint }>(
  fetchPage: (beforeId: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let beforeId = Number.MAX_SAFE_INTEGER
  for (;;) {
    const rows = await fetchPage(beforeId)
    if (rows.length > 0) yield rows
    if (rows.length < EXPORT_PAGE_SIZE) return
    beforeId = Number(rows.at(-1)!.id)
  }
}
