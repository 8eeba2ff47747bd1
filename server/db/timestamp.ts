/**
 * A stored time as ISO 8601 text. PostgreSQL's timestamptz comes back as a Date; SQLite keeps the text
 * the product wrote with toISOString(), which is returned as it is (no Date round trip for every row of
 * an export).
 */
export function isoTimestamp(value: Date | string): string {
  return typeof value === 'string' ? value : value.toISOString()
}
