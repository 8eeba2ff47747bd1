import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'
import type { Manifest } from 'vite'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../server/forms/load-intake-config.ts'
import { createValidatorModules } from '../server/forms/validator-modules.ts'
import { loadLanguages } from '../server/forms/languages.ts'

// npm run bench:bundle [-- --verbose] [--keep]
// Builds the client with the project's vite.config.ts into a temp dir and sums, per claimant and staff
// route, the gzipped JavaScript the browser fetches before the route has drawn its content. A miss is
// printed as MISS; like `npm run bench`, it exits non-zero only on an error.
const { values: args } = parseArgs({
  options: { verbose: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } },
})

const ROOT = path.resolve(import.meta.dirname, '..')
/** Vite prints kB as 1000 bytes; so do we (stricter than KiB). */
const KB = 1000

interface RouteSpec {
  route: string
  budgetKb: number | undefined
  /**
   * The lazy modules (manifest keys) the route waits for before it shows its content: the router's
   * lazy route, and any React.lazy part rendered on first paint (such as the intake form on '/').
   */
  lazyModules: string[]
  /** A validator module the server generates at run time (not in the Vite build) that the route imports. */
  validatorOf?: { kind: 'form'; slug: string } | { kind: 'intake' }
}

const ROUTES: RouteSpec[] = [
  {
    route: '/',
    budgetKb: 130,
    lazyModules: ['client/intake/intake-form.tsx'],
    validatorOf: { kind: 'intake' },
  },
  {
    route: '/{app}',
    budgetKb: 130,
    lazyModules: ['client/routes/claim-route.tsx', 'client/forms/claim-form.tsx'],
    validatorOf: { kind: 'form', slug: 'brigit' },
  },
  { route: '/{app}-success', budgetKb: 90, lazyModules: ['client/routes/success-route.tsx'] },
  { route: '/view-agreement', budgetKb: 90, lazyModules: ['client/routes/view-agreement-route.tsx'] },
  { route: '/thank-you', budgetKb: 90, lazyModules: ['client/routes/thank-you-route.tsx'] },
  // staff: no budget of its own; reported so a staff chunk leaking into a claimant route shows
  { route: '/{app}-admin', budgetKb: undefined, lazyModules: ['client/routes/admin-route.tsx'] },
]

interface RouteFigure {
  route: string
  budgetKb: number | undefined
  gzipBytes: number
  parts: { name: string; gzipBytes: number }[]
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bundle-'))
try {
  await buildClient(outDir)
  const manifest = JSON.parse(
    fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest
  const figures: RouteFigure[] = []
  for (const spec of ROUTES) figures.push(await measureRoute({ spec, manifest, outDir }))
  console.log(formatFigures(figures))
  if (args.verbose) console.log(`\n${formatParts(figures)}`)
  if (args.keep) console.log(`\nbuild kept in ${outDir}`)
} finally {
  if (!args.keep) fs.rmSync(outDir, { recursive: true, force: true })
}

async function buildClient(dir: string): Promise<void> {
  const { build } = await import('vite')
  // a production bundle, whatever NODE_ENV the caller has (React ships a larger development build)
  process.env.NODE_ENV = 'production'
  await build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true, manifest: true },
  })
}

/** The entry's static imports, then each lazy module the route needs with its static imports. */
async function measureRoute({
  spec,
  manifest,
  outDir: dir,
}: {
  spec: RouteSpec
  manifest: Manifest
  outDir: string
}): Promise<RouteFigure> {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
  if (!entryKey) throw new Error('the Vite manifest has no entry chunk')
  const files = new Set<string>()
  for (const key of [entryKey, ...spec.lazyModules]) {
    if (!manifest[key]) throw new Error(`${spec.route}: "${key}" is not a chunk of the build; update ROUTES`)
    collectStaticImports(manifest, key, files)
  }
  const parts = [...files].map((file) => ({
    name: file,
    gzipBytes: gzipSize(fs.readFileSync(path.join(dir, file))),
  }))
  if (spec.validatorOf) parts.push(await measureValidator(spec.validatorOf))
  parts.sort((a, b) => b.gzipBytes - a.gzipBytes)
  const gzipBytes = parts.reduce((sum, part) => sum + part.gzipBytes, 0)
  return { route: spec.route, budgetKb: spec.budgetKb, gzipBytes, parts }
}

function collectStaticImports(manifest: Manifest, key: string, files: Set<string>): void {
  const chunk = manifest[key]
  if (!chunk || !chunk.file.endsWith('.js') || files.has(chunk.file)) return
  files.add(chunk.file)
  for (const imported of chunk.imports ?? []) collectStaticImports(manifest, imported, files)
}

/** The validator module the server generates at start-up from forms/, as the browser receives it. */
async function measureValidator(
  of: NonNullable<RouteSpec['validatorOf']>,
): Promise<{ name: string; gzipBytes: number }> {
  const formsDir = path.join(ROOT, 'forms')
  const forms = loadFormConfigs(formsDir)
  const intake = loadIntakeConfig(formsDir)
  const validators = createValidatorModules({ languages: loadLanguages({ formsDir, forms, intake }) })
  if (of.kind === 'intake') {
    return {
      name: '/api/intake/validator.js',
      gzipBytes: gzipSize(Buffer.from(await validators.forIntake(intake, 'en'))),
    }
  }
  const config = forms.get(of.slug)
  if (!config) throw new Error(`forms/ has no app "${of.slug}"`)
  const code = await validators.forForm(config, 'en')
  return { name: `/api/forms/${of.slug}/validator.js`, gzipBytes: gzipSize(Buffer.from(code)) }
}

function gzipSize(bytes: Buffer): number {
  // zlib's default level, as Vite's own size report uses
  return zlib.gzipSync(bytes).length
}

function isWithinBudget(figure: RouteFigure): boolean {
  return figure.budgetKb === undefined || figure.gzipBytes <= figure.budgetKb * KB
}

function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`
}

function formatFigures(figures: RouteFigure[]): string {
  const header = ['Route', 'JS loaded first (gzip)', 'Budget', 'Result']
  const rows = figures.map((figure) => [
    figure.route,
    kb(figure.gzipBytes),
    figure.budgetKb === undefined ? '—' : `≤ ${figure.budgetKb} KB`,
    figure.budgetKb === undefined ? '—' : isWithinBudget(figure) ? 'PASS' : 'MISS',
  ])
  return markdownTable(header, rows)
}

function formatParts(figures: RouteFigure[]): string {
  return figures
    .map((figure) =>
      [
        `${figure.route}:`,
        ...figure.parts.map((part) => `  ${kb(part.gzipBytes).padStart(9)}  ${part.name}`),
      ].join('\n'),
    )
    .join('\n')
}

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  )
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}
