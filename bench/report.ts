/** One line of the results table: a figure beside its budget. */
export interface ResultRow {
  benchmark: string
  figure: string
  budget: string
  /** undefined for a figure that has no budget (reported for honesty only). */
  isWithinBudget?: boolean | undefined
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a'
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`
}

export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function verdict(row: ResultRow): string {
  if (row.isWithinBudget === undefined) return '—'
  return row.isWithinBudget ? 'PASS' : 'MISS'
}

/** The results as a Markdown table, so it can be pasted into BENCHMARKS.md as printed. */
export function formatTable(rows: ResultRow[]): string {
  const header = ['Benchmark', 'Figure', 'Budget', 'Result']
  const cells = rows.map((row) => [row.benchmark, row.figure, row.budget, verdict(row)])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  )
  const line = (values: string[]) => `| ${values.map((value, i) => value.padEnd(widths[i]!)).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...cells.map(line),
  ].join('\n')
}
