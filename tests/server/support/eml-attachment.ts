/** The body of the MIME part whose headers name `filename` (`filename="…"`), decoded from base64. */
export function attachmentOf(eml: string, filename: string, type = 'text/html; charset=utf-8'): Buffer {
  const boundary = /boundary="?([^";\n]+)"?/.exec(eml)?.[1]
  if (!boundary) throw new Error('the message is not multipart')
  const part = eml
    .split(`--${boundary}`)
    .map((section) => section.replace(/^\n/, ''))
    .find((section) => section.split('\n\n')[0]?.includes(`filename="${filename}"`))
  if (!part) throw new Error(`no part holds ${filename}`)
  const [headers = '', ...body] = part.split('\n\n')
  if (!headers.toLowerCase().includes(`content-type: ${type}`)) {
    throw new Error(`${filename} is not attached as ${type}: ${headers}`)
  }
  if (!/Content-Transfer-Encoding: base64/i.test(headers)) throw new Error(`${filename} is not in base64`)
  return Buffer.from(body.join('\n\n').replace(/\s+/g, ''), 'base64')
}
