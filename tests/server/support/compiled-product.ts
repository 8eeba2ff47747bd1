import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../../../server/project-root.ts'
import { compileServer } from '../../../scripts/compile-server.ts'

/**
 * The server and operator scripts compiled for the tests' processes. A process started from source
 * (`node --import tsx`) has tsx's loader translate each module in the process and again in each of its
 * threads, a cost the suite would pay for each of the dozens of processes it starts.
 * Inside node_modules, so the packages resolve as from dist/server and no tool lints or formats it; one
 * copy per checkout, since git worktrees may share one node_modules and run their suites at once.
 */
const COMPILED_DIR = path.join(
  PROJECT_ROOT,
  'node_modules',
  '.cache',
  `claims-intake-tests-${crypto.createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12)}`,
)
/** What the compiled copy was made from: the newest source file's time and the number of files. */
const STAMP_FILE = path.join(COMPILED_DIR, '.compiled-from')
const SOURCE_DIRS = ['server', 'src', 'migrations', 'scripts']
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json']

/**
 * The arguments to give node to run `script` (relative to the project, without its extension) as
 * compiled: `[...productScript('scripts/staff'), 'list']`. The test run's global set-up compiled it.
 */
export function productScript(script: string): string[] {
  return [path.join(COMPILED_DIR, `${script}.js`)]
}

/** Compiles the product for the tests' processes, unless the copy is of today's source already. */
export async function compileProductForTests(): Promise<void> {
  const stamp = sourceStamp()
  const current = fs.existsSync(STAMP_FILE) ? fs.readFileSync(STAMP_FILE, 'utf8') : undefined
  if (current === stamp) return
  await compileServer(COMPILED_DIR)
  fs.writeFileSync(STAMP_FILE, stamp)
}

function sourceStamp(): string {
  let newest = 0
  let count = 0
  const visit = (file: string) => {
    const stat = fs.statSync(file)
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry))
    } else {
      newest = Math.max(newest, stat.mtimeMs)
      count += 1
    }
  }
  for (const name of [...SOURCE_DIRS, ...SOURCE_FILES]) visit(path.join(PROJECT_ROOT, name))
  return `${newest} ${count}`
}
