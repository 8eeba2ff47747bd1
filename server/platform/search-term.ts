/** What the staff typed, ready for both kinds of index; undefined means "everything". */
export interface SearchTerm {
  text: string
  /** The term's digits, matched against the phone's digits; only when there are at least three. */
  digits: string | undefined
}

export const MAX_SEARCH_LENGTH = 200
/** FTS5 trigram and pg_trgm both need three characters to use their index. */
export const MIN_INDEXED_LENGTH = 3

export function parseSearchTerm(q: string): SearchTerm | undefined {
  const text = q.trim()
  if (text === '') return undefined
  // only a phone-like term ('555-1234', '(555) 12') is matched by its digits: 'john123' is an e-mail search
  const digits = /^[\d\s().+-]+$/.test(text) ? text.replace(/\D/g, '') : ''
  return { text, digits: digits.length >= MIN_INDEXED_LENGTH ? digits : undefined }
}

/** '%term%' with LIKE's own characters (% _ \) escaped by a backslash. */
export function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, '\\$&')}%`
}
