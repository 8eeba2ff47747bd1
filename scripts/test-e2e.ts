import fs from 'node:fs'
import path from 'node:path'
import { ensureClientBuild } from '../server/client-build.ts'
import { CLIENT_DIR } from '../server/main.ts'
import { PROJECT_ROOT } from '../server/project-root.ts'
import { prepareChromium } from '../tests/e2e/chromium.ts'
import { labelledRun } from './labelled-run.ts'

// `npm run test:e2e`: the browser tests in three vitest runs at once, each with its own server, DATA_DIR
// and Chromium (tests/e2e/global-setup.ts), so no spec sees another run's claims or sign-ins. A spec
// waits on its page, the server and the browser in turn: one run alone leaves a third of this machine's
// two cores idle, two runs still a fifth. `npm run test:e2e -- <files or filters>` runs what it names in
// one run; `npm run test:e2e -- --prepare` only builds the client and unpacks Chromium (scripts/check.ts
// does it while the other checks run).

const SPEC_DIR = path.join(PROJECT_ROOT, 'tests', 'e2e')
const VITEST = path.join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs')
/**
 * The spec folders (or spec files, by their path under tests/e2e) of each run but the last, which takes
 * every other spec file, in about equal shares of time: the claimant forms (every way a claimant
 * arrives among them) and the claimant's payment; the accessibility scans, the intake, the agreements,
 * the hostile texts and proof of work; staff (the funnel among them), the other security specs, the
 * routes and the rest.
 */
const RUNS = [
  ['step2', 'payouts'],
  [
    'accessibility',
    'intake',
    'agreements',
    'security/hostile-text.spec.ts',
    'security/proof-of-work.spec.ts',
  ],
]

function specFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return specFiles(file)
    return entry.name.endsWith('.spec.ts') ? [path.relative(PROJECT_ROOT, file)] : []
  })
}

function runs(files: string[]): string[][] {
  const runOf = (file: string) => {
    const inSpecs = path.relative(SPEC_DIR, path.join(PROJECT_ROOT, file)).split(path.sep)
    const run = RUNS.findIndex((named) => named.includes(inSpecs[0]!) || named.includes(inSpecs.join('/')))
    return run === -1 ? RUNS.length : run
  }
  return Array.from({ length: RUNS.length + 1 }, (_, run) => files.filter((file) => runOf(file) === run))
}

/** One vitest run over `args`, its output line by line behind `label`; resolves to its exit code. */
function vitestRun(args: string[], label: string): Promise<number> {
  return labelledRun(process.execPath, [VITEST, 'run', '--config', 'vitest.e2e.config.ts', ...args], label)
}

// built and unpacked once here: on a fresh clone each run's global set-up would otherwise build the client
// and unpack @sparticuz/chromium's Chromium into the same files at once, and a run that starts the binary
// while another still writes it fails (spawn ETXTBSY); the runs take this Chromium from CHROMIUM_PATH
const [, chromiumExecutable] = await Promise.all([
  ensureClientBuild(CLIENT_DIR, (message) => console.log(message)),
  prepareChromium(),
])
process.env.CHROMIUM_PATH = chromiumExecutable

const passed = process.argv.slice(2)
if (passed.length === 1 && passed[0] === '--prepare') process.exit(0)
const codes =
  passed.length > 0
    ? [await vitestRun(passed, '')]
    : await Promise.all(runs(specFiles(SPEC_DIR)).map((files, i) => vitestRun(files, `e2e ${i + 1} │ `)))
process.exit(codes.every((code) => code === 0) ? 0 : 1)
