import { spawn } from 'node:child_process'
import readline from 'node:readline'
import { PROJECT_ROOT } from '../server/project-root.ts'

/**
 * Runs `command` with `args` in the project's folder, each line of its output behind `label`, so that
 * runs side by side stay readable; resolves to its exit code (1 when a signal ended it).
 */
export function labelledRun(
  command: string,
  args: readonly string[],
  label: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`${label}${line}`))
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}
