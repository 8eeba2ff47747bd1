/** A value the canonical serialisation takes: JSON's own, with no undefined anywhere. */
export type CanonicalValue =
  string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue }

/**
 * The canonical serialisation of sealed records and ledger entries: JSON with no white space, every
 * object's keys in ascending order of their UTF-16 code units, strings escaped as JSON.stringify does,
 * whole numbers only. Read as UTF-8, the same value always gives the same bytes, so anyone can recompute
 * a seal from a record.json with `sha256sum`.
 * @example canonicalJson({ b: 1, a: ['x', null] }) // '{"a":["x",null],"b":1}'
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`a sealed value must be a whole number, not ${value}`)
    return String(value)
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  return `{${canonicalMembers(value as { readonly [key: string]: CanonicalValue }).join(',')}}`
}

/** An object's members as canonicalJson writes them, in order: '"key":value'. */
export function canonicalMembers(value: { readonly [key: string]: CanonicalValue }): string[] {
  return Object.keys(value)
    .sort()
    .map((key) => {
      const member = value[key]
      if (member === undefined) throw new Error(`sealed field "${key}" has no value`)
      return `${JSON.stringify(key)}:${canonicalJson(member)}`
    })
}
