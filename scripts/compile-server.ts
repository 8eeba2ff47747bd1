import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../server/project-root.ts'

/** Plain JavaScript files the compiled server starts as threads; tsc copies only what it compiles. */
const THREAD_FILES = ['server/db/wal-checkpoint-worker.cjs', 'server/forms/minify-worker.mjs']

/**
 * Compiles the server, src/, the migrations and the operator scripts to plain JavaScript in `outDir`
 * (tsconfig.build.json), as `npm run start:prod` runs them. `outDir` is emptied first, so a file removed
 * from the source is gone from it too. Rejects with tsc's errors if the source does not compile.
 */
export async function compileServer(outDir: string): Promise<void> {
  fs.rmSync(outDir, { recursive: true, force: true })
  const tsc = spawn(
    process.execPath,
    [
      path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let printed = ''
  tsc.stdout.setEncoding('utf8').on('data', (text: string) => (printed += text))
  tsc.stderr.setEncoding('utf8').on('data', (text: string) => (printed += text))
  const code = await new Promise<number | null>((resolve) => tsc.once('close', resolve))
  if (code !== 0) throw new Error(`the server did not compile (tsc exited ${code}):\n${printed}`)
  for (const file of THREAD_FILES) {
    fs.copyFileSync(path.join(PROJECT_ROOT, file), path.join(outDir, file))
  }
}
