/** What a claimant could type to run script, evaluate a template or plant a spreadsheet formula. */
export const PAYLOADS = [
  '<img src=x onerror=window.__pwned=1>',
  '<script>window.__pwned=1</script>',
  "{{constructor.constructor('window.__pwned=1')()}}",
  '{{firmName}}',
  '=HYPERLINK("http://evil","x")',
  '+SUM(1,2)',
  '@cmd',
  '-1+1',
  '{{firm.firmName}}',
  '"><svg onload=window.__pwned=1>',
] as const

/** Pair i is one claimant's first and last name. */
export const NAMES = [0, 2, 4, 6, 8].map((i) => ({ firstName: PAYLOADS[i]!, lastName: PAYLOADS[i + 1]! }))
/** Hostile and still valid: the forms accept any non-space, non-@ text around one @ and a dot (stored lowercased). */
export const EMAILS = [
  "o'brien+{{x}}@evil.example",
  '<img/src=x/onerror=window.__pwned=1>@evil.example',
  '<script>window.__pwned=1</script>@evil.example',
  '=hyperlink("http://evil","x")@evil.example',
  "-2+3+cmd|'/c_calc'!a0@evil.example",
]

export function fullName(i: number): string {
  return `${NAMES[i]!.firstName} ${NAMES[i]!.lastName}`
}

/** The product's rule: a cell a spreadsheet would run as a formula starts with a single quote. */
export function neutralised(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

/**
 * RFC 4180, strictly: a quote may only open a cell or close it (doubled inside), so a value that needed
 * quotes and did not get them throws instead of being read back by luck.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let i = 0
  const endCell = () => {
    row.push(cell)
    cell = ''
  }
  while (i < text.length) {
    const char = text[i]!
    if (char === '"' && cell === '') {
      i += 1
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted cell')
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"'
          i += 2
        } else if (text[i] === '"') {
          i += 1
          break
        } else {
          cell += text[i]
          i += 1
        }
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\r')
        throw new Error(`text after a closing quote: ${cell}`)
      continue
    }
    if (char === '"') throw new Error(`a quote inside an unquoted cell: ${cell}`)
    if (char === ',') {
      endCell()
    } else if (char === '\r' && text[i + 1] === '\n') {
      endCell()
      rows.push(row)
      row = []
      i += 1
    } else {
      cell += char
    }
    i += 1
  }
  if (cell !== '' || row.length > 0) {
    endCell()
    rows.push(row)
  }
  return rows
}
