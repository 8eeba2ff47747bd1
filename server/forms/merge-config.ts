/**
 * An app's config laid over the shared Step 2 base (forms/base/step2.json): objects merge key by key,
 * anything else (a text, a number, an array) in the app's file replaces the base's. So an app's file
 * holds only what differs, and a field override is as small as the one key it changes.
 * @example mergeConfig({ a: { b: 1, c: 2 } }, { a: { c: 3 } }) // { a: { b: 1, c: 3 } }
 */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(override)) {
    merged[key] = key in base ? mergeConfig(base[key], value) : value
  }
  return merged
}

/** Whether the JSON pointer (ajv's instancePath, "/uiSchema/phoneNumber/ui:widget") leads to a value in this document. */
export function hasPointer(document: unknown, pointer: string): boolean {
  let value = document
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isPlainObject(value) && !Array.isArray(value)) return false
    if (!(key in value)) return false
    value = (value as Record<string, unknown>)[key]
  }
  return true
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
