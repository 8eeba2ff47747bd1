import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from './project-root.ts'

const ROOT = PROJECT_ROOT
const STAMP_FILE = '.build-stamp'
/** What the client bundle is made from; a change to any of them means a rebuild. */
const INPUTS = [
  'client',
  'src',
  'agreements',
  'firm.json',
  'index.html',
  'public',
  'vite.config.ts',
  'package-lock.json',
]

/** Builds dist/client with Vite when it is missing or older than its sources. */
export async function ensureClientBuild(outDir: string, log: (message: string) => void): Promise<void> {
  const stamp = hashInputs()
  const stampFile = path.join(outDir, STAMP_FILE)
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return
  log('building the client (vite build)…')
  const { build } = await import('vite')
  // vitest sets NODE_ENV=test, which would bundle React's development build; claimants get production
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: ROOT,
      mode: 'production',
      logLevel: 'warn',
      configFile: path.join(ROOT, 'vite.config.ts'),
    })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  fs.writeFileSync(stampFile, stamp)
}

function hashInputs(): string {
  const hash = crypto.createHash('sha256')
  for (const input of INPUTS) {
    for (const file of listFiles(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file))
      hash.update(fs.readFileSync(file))
    }
  }
  return hash.digest('hex')
}

function listFiles(target: string): string[] {
  if (!fs.existsSync(target)) return []
  if (fs.statSync(target).isFile()) return [target]
  return fs
    .readdirSync(target, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => listFiles(path.join(target, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file))
}
