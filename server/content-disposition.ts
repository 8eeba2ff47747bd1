/**
 * How a file sent to a claimant is named: `filename*` (RFC 2231 in e-mail, RFC 5987/6266 over HTTP)
 * carries the name in percent-encoded UTF-8, so that "Peña" stays "Peña", and `filename` a plain ASCII
 * fallback for the readers that know only that one. Left to themselves, nodemailer writes only the
 * encoded form, and Express a Latin-1 name as raw bytes with no encoded form.
 */

// a header line may not pass 998 characters (RFC 5322): a longer encoded name goes in sections
const MAX_MIME_PARAMETER = 900
const MIME_SECTION = 60

/**
 * The name with its accents dropped (decomposed, then the marks removed) and any other character that
 * is not an ASCII letter, digit, dot or dash made a dash.
 */
export function asciiFileName(fileName: string): string {
  return (
    fileName
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .replace(/-+(?=\.[^.]*$)/, '') || 'file'
  )
}

/** The Content-Disposition of an HTTP response that is a file to save. */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const { ascii, encoded } = fileNameParameters(fileName)
  return `${type}; filename="${ascii}"${encoded === undefined ? '' : `; filename*=UTF-8''${encoded}`}`
}

/**
 * The Content-Disposition of a MIME part, one parameter a line (folded with CRLF and a space), a name
 * too long for one line cut into RFC 2231 sections (`filename*0*=UTF-8''…; filename*1*=…`).
 */
export function mimeContentDisposition(fileName: string): string {
  const { ascii, encoded } = fileNameParameters(fileName)
  const parameters = [`filename="${ascii}"`]
  if (encoded !== undefined && encoded.length <= MAX_MIME_PARAMETER) {
    parameters.push(`filename*=UTF-8''${encoded}`)
  } else if (encoded !== undefined) {
    sections(encoded).forEach((section, i) => {
      parameters.push(`filename*${i}*=${i === 0 ? "UTF-8''" : ''}${section}`)
    })
  }
  return `attachment;\r\n ${parameters.join(';\r\n ')}`
}

/** The ASCII fallback, and the name percent-encoded when the fallback is not the name itself. */
function fileNameParameters(fileName: string): { ascii: string; encoded?: string } {
  // composed, so "é" is %C3%A9 however it was typed; a lone surrogate has no UTF-8
  const name = fileName.normalize('NFC').replace(/\p{Cs}/gu, '\uFFFD')
  const ascii = asciiFileName(name)
  return ascii === name ? { ascii } : { ascii, encoded: percentEncoded(name) }
}

/** UTF-8, percent-encoded except RFC 5987's attr-chars (encodeURIComponent leaves ' ( ) * too). */
function percentEncoded(text: string): string {
  return encodeURIComponent(text).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/** The encoded name in pieces of about MIME_SECTION characters, never cutting a %XX apart. */
function sections(encoded: string): string[] {
  const pieces: string[] = []
  let start = 0
  while (start < encoded.length) {
    let end = Math.min(start + MIME_SECTION, encoded.length)
    const percent = encoded.lastIndexOf('%', end - 1)
    if (percent > end - 3 && percent >= start && end < encoded.length) end = percent
    pieces.push(encoded.slice(start, end))
    start = end
  }
  return pieces
}
