import path from 'node:path'
import { PROJECT_ROOT } from '../server/project-root.ts'
import { labelledRun } from './labelled-run.ts'

// `npm run check`, what CI runs after the install: the typecheck, the linter, the format check, the unit
// and API tests, then the browser tests. The first four and the browser tests' preparation (the client
// build, Chromium unpacked) run at once: the tests spend much of their time waiting on PostgreSQL and the
// servers they spawn, and the checks fill that time, so together they take little longer than the tests
// alone. The browser tests start once all of them passed; each part's lines are labelled.

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx')

const first = await Promise.all([
  labelledRun(NPM, ['run', '--silent', 'typecheck'], 'typecheck │ '),
  labelledRun(NPM, ['run', '--silent', 'lint'], 'lint │ '),
  labelledRun(NPM, ['run', '--silent', 'format:check'], 'format │ '),
  labelledRun(NPM, ['run', '--silent', 'test:unit'], 'unit │ '),
  labelledRun(TSX, ['scripts/test-e2e.ts', '--prepare'], 'e2e │ '),
])
if (first.some((code) => code !== 0)) {
  console.error('npm run check: a check above failed (see its lines); the browser tests were not run')
  process.exit(1)
}
process.exit(await labelledRun(NPM, ['run', '--silent', 'test:e2e'], ''))
