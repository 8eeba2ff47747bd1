/**
 * Markup a browser runs when it reads bytes as HTML or SVG, searched for in a file's raw bytes (case-
 * insensitive, ASCII): a script, frame or plugin tag or a whole document (`<script` then a space, `/` or
 * `>`), an event handler inside a tag (`<svg … onload=`, at most 200 bytes after the tag name), or a
 * `javascript:` URL. Magic bytes only say how a file starts, so a polyglot (a GIF header then a page, a PNG
 * with a script after IEND or in a text chunk, a JPEG comment holding an <svg onload>) passes the type
 * check; this finds its payload anywhere in the file. Random (compressed pixel) bytes hold one by chance
 * about once in 300,000 files of 10 MB, and ten times less often in a usual 1 MB screenshot.
 *
 * It works on the bytes (memchr for each `<`, a search for `t:` and `T:`, then a few comparisons), never
 * on a decoded copy, which would leave a string as large as the file per claim for the garbage collector.
 * MARKUP_PATTERN is the same rule as one regular expression over the bytes read as Latin-1; the tests
 * hold the two to the same answers.
 */
export const MARKUP_PATTERN =
  /<(?:script|iframe|object|embed|applet|html|!doctype)[\t\n\f\r />]|<[a-z][a-z0-9-]*[\t\n\f\r\x20-\x3b\x3d\x3f-\x7e\x80-\xff]{0,200}?[\t\n\f\r /"']on[a-z]{3,}[\t\n\f\r ]*=|javascript:/i

const LESS_THAN = 0x3c
const MAX_ATTRIBUTE_GAP = 200
const RUNNING_TAGS = ['script', 'iframe', 'object', 'embed', 'applet', 'html', '!doctype'].map(ascii)
const JAVASCRIPT = ascii('javascript:')
const JAVASCRIPT_ENDINGS = [ascii('t:'), ascii('T:')]
/** The (lower-case) bytes a running tag's name starts with, as a table indexed by byte. */
const RUNNING_TAG_STARTS = new Uint8Array(256)
for (const tag of RUNNING_TAGS) RUNNING_TAG_STARTS[tag[0]!] = 1

/** True when the bytes hold markup that runs (see above). */
export function findsMarkup(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(LESS_THAN); at !== -1; at = bytes.indexOf(LESS_THAN, at + 1)) {
    const next = bytes[at + 1]
    // four in five `<` in pixel data are followed by neither a letter nor `!`, and so open nothing
    if (next === undefined || !(isLetter(next) || next === 0x21)) continue
    if (opensRunningTag(bytes, at) || opensTagWithHandler(bytes, at)) return true
  }
  // `javascript:` ends in `t:` or `T:`: searching for those pairs stops a few times in a file, where pixel
  // data holds a colon every few hundred bytes, and each stop is a call into Node
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (const ending of JAVASCRIPT_ENDINGS) {
    for (let at = view.indexOf(ending); at !== -1; at = view.indexOf(ending, at + 1)) {
      const start = at + 2 - JAVASCRIPT.length
      if (start >= 0 && matchesAt(bytes, start, JAVASCRIPT)) return true
    }
  }
  return false
}

/** `<script`, `<iframe`, … `<!doctype` followed by whitespace, `/` or `>`. */
function opensRunningTag(bytes: Uint8Array, lessThan: number): boolean {
  // most `<` + letter in pixel data start no running tag at all: one table look-up rules them out
  if (!RUNNING_TAG_STARTS[lower(bytes[lessThan + 1]) & 0xff]) return false
  for (const tag of RUNNING_TAGS) {
    const end = lessThan + 1 + tag.length
    if (end < bytes.length && matchesAt(bytes, lessThan + 1, tag) && isTagEnd(bytes[end]!)) return true
  }
  return false
}

/**
 * `<` and a letter, then up to 200 bytes past the tag name (none of them `<`, `>` or a control byte other
 * than whitespace), then a separator and `on` + three or more letters, optional whitespace and `=`.
 */
function opensTagWithHandler(bytes: Uint8Array, lessThan: number): boolean {
  let at = lessThan + 1
  if (at >= bytes.length || !isLetter(bytes[at]!)) return false
  at++
  while (at < bytes.length && isTagNameByte(bytes[at]!)) at++
  const last = Math.min(at + MAX_ATTRIBUTE_GAP, bytes.length - 1)
  // every byte before the separator, from the tag name's second byte, must be one a tag may hold
  for (let separator = lessThan + 2; separator <= last; separator++) {
    const byte = bytes[separator]!
    if (isSeparator(byte) && startsHandler(bytes, separator + 1)) return true
    if (!isInsideTagByte(byte)) return false
  }
  return false
}

/** `on` + three or more letters, optional whitespace, `=`. */
function startsHandler(bytes: Uint8Array, at: number): boolean {
  if (!(lower(bytes[at]) === 0x6f && lower(bytes[at + 1]) === 0x6e)) return false
  let end = at + 2
  while (end < bytes.length && isLetter(bytes[end]!)) end++
  if (end - at - 2 < 3) return false
  while (end < bytes.length && isWhitespace(bytes[end]!)) end++
  return bytes[end] === 0x3d
}

function matchesAt(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let i = 0; i < word.length; i++) {
    const expected = word[i]!
    const byte = bytes[at + i]
    if (byte !== expected && !(isLetter(expected) && lower(byte) === expected)) return false
  }
  return true
}

function lower(byte: number | undefined): number {
  return byte !== undefined && byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : (byte ?? -1)
}

function isLetter(byte: number): boolean {
  const folded = byte | 0x20
  return folded >= 0x61 && folded <= 0x7a
}

function isTagNameByte(byte: number): boolean {
  return isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d
}

function isWhitespace(byte: number): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20
}

function isTagEnd(byte: number): boolean {
  return isWhitespace(byte) || byte === 0x2f || byte === 0x3e
}

function isSeparator(byte: number): boolean {
  return isWhitespace(byte) || byte === 0x2f || byte === 0x22 || byte === 0x27
}

/** Whitespace, printable ASCII but `<` and `>`, and every byte from 0x80. */
function isInsideTagByte(byte: number): boolean {
  return (
    isWhitespace(byte) ||
    (byte >= 0x20 && byte <= 0x7e && byte !== LESS_THAN && byte !== 0x3e) ||
    byte >= 0x80
  )
}

function ascii(text: string): Uint8Array {
  return Buffer.from(text, 'latin1')
}
