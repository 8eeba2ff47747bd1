const NAME_WIDTH = 22

/**
 * A name as an ACH record may hold it: upper case, accents taken off, and only letters, digits, spaces
 * and - . , & kept (banks refuse much that NACHA allows, and anything outside ASCII), cut to `width`
 * (22, an entry's individual name, unless told).
 * @example achName("José O'Brien-Núñez") // 'JOSE OBRIEN-NUNEZ'
 */
export function achName(name: string, width = NAME_WIDTH): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'SS')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,&-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, width)
    .trim()
}
