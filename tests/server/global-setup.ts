import { spawn } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the one PostgreSQL server of this run; each test file creates its own database on it. */
    postgresUrl: string
  }
}

/** Starts one throw-away PostgreSQL (in a child process) for the whole run and hands its URL to the tests. */
export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'postgres-process.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout })
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(line.slice('READY '.length))
      else if (line.startsWith('FAILED ')) reject(new Error(line.slice('FAILED '.length)))
    })
    void exited.then((code) => reject(new Error(`the PostgreSQL process exited early (code ${code})`)))
  })
  provide('postgresUrl', url)

  return async () => {
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    await exited
    clearTimeout(timer)
  }
}
