import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, ADMIN_PASSWORD, makeClaimData, makePng } from '../support/helpers.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

/** The server processes the primary forked, from /proc (Linux). */
function childPids(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((thread) => fs.readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim().split(/\s+/))
    .filter(Boolean)
    .map(Number)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** One request on a connection of its own, so the primary hands each to the next process. */
function send(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function fileClaim(server: ServerProcess, n: number) {
  const form = new FormData()
  const phone = `(555) 410-${String(n).padStart(4, '0')}`
  form.append('data', JSON.stringify(makeClaimData({ email: `p${n}@example.com`, phoneNumber: phone })))
  form.append(
    'screenshot',
    new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))], { type: 'image/png' }),
    'a.png',
  )
  const request = new Request('http://x/', { method: 'POST', body: form })
  const body = Buffer.from(await request.arrayBuffer())
  return send(`${server.url}/api/forms/brigit/submissions`, {
    method: 'POST',
    headers: { 'Content-Type': request.headers.get('content-type')! },
    body,
  })
}

describe('SERVER_PROCESSES=2: two server processes share one port and one database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-server-processes-'))
  let server: ServerProcess

  beforeAll(async () => {
    server = await startServerProcess({ dataDir, serverProcesses: 2 })
  }, 60_000)

  afterAll(async () => {
    await killServerProcesses()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('says how many processes serve, and runs that many', () => {
    expect(server.output()).toContain(`Claims intake is running on ${server.url} (2 server processes)`)
    expect(childPids(server.pid)).toHaveLength(2)
  })

  it('takes claims on every connection, each stored once with its file', async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => fileClaim(server, n)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(24).fill(201))
    const db = new SQLite(path.join(dataDir, 'claims.db'), { readonly: true })
    try {
      const rows = db.prepare("SELECT screenshot_key FROM claims WHERE app = 'brigit'").all() as {
        screenshot_key: string
      }[]
      expect(rows).toHaveLength(24)
      for (const row of rows)
        expect(fs.existsSync(path.join(dataDir, 'screenshots', row.screenshot_key))).toBe(true)
    } finally {
      db.close()
    }
    // the same phone again is refused, whichever process takes it
    expect((await fileClaim(server, 3)).status).toBe(409)
  })

  it('keeps a staff session on whichever process a request reaches', async () => {
    const login = await send(`${server.url}/api/staff/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: Buffer.from(JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })),
    })
    expect(login.status).toBe(204)
    const cookie = String(login.headers['set-cookie']?.[0]).split(';')[0]!
    for (let i = 0; i < 6; i++) {
      const stats = await send(`${server.url}/api/staff/apps/brigit/stats`, { headers: { Cookie: cookie } })
      expect(stats.status).toBe(200)
    }
  })

  it('replaces a process that dies, and keeps answering', async () => {
    const [victim] = childPids(server.pid)
    process.kill(victim!, 'SIGKILL')
    await server.waitForLine('server process stopped; starting another')
    for (let waited = 0; childPids(server.pid).length < 2 && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(childPids(server.pid)).toHaveLength(2)
    expect(childPids(server.pid)).not.toContain(victim)
    for (let i = 0; i < 6; i++) {
      expect((await send(`${server.url}/api/forms/brigit`, {})).status).toBe(200)
    }
  }, 40_000)

  it('stops every process on SIGTERM, exiting 0', async () => {
    const children = childPids(server.pid)
    expect(await server.kill('SIGTERM')).toBe('code 0')
    expect(server.output()).not.toContain('giving up')
    expect(children.filter(isRunning)).toEqual([])
  })
})
