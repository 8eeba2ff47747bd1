/** The most ids one `in (…)` list takes: well under either database's parameter limit. */
export const ID_CHUNK = 500

/** `items` in lists of at most `size`, in order: one `in (…)` query each. */
export function chunks<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}
