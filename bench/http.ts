import http from 'node:http'

/** One keep-alive connection, like a staff browser tab: requests go one after another. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

export interface BenchResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export function request(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    timeoutMs = 120_000,
    newConnection = false,
  }: {
    method?: string
    headers?: Record<string, string>
    body?: string | Buffer
    timeoutMs?: number
    /**
     * A connection of its own, closed after the answer, rather than the shared keep-alive one, which the
     * server may be closing for idleness just as the request goes out (after a pause between loads).
     */
    newConnection?: boolean
  } = {},
): Promise<BenchResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers, agent: newConnection ? false : agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end(body)
  })
}

export function postJson(
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<BenchResponse> {
  return request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  })
}

/** Logs in as staff (Origin matching Host, as the dashboard sends it) and returns the session cookie. */
/** The admin every benchmark's server is started with (ADMIN_EMAIL). */
export const BENCH_ADMIN_EMAIL = 'bench-admin@firm.test'

export async function loginAsStaff(baseUrl: string, password: string): Promise<string> {
  const response = await postJson(
    `${baseUrl}/api/staff/login`,
    { email: BENCH_ADMIN_EMAIL, password },
    { Origin: baseUrl },
  )
  const cookie = [response.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('staff_session='))
  if (response.status !== 204 || !cookie) {
    throw new Error(`staff login answered ${response.status}: ${response.body.toString().slice(0, 200)}`)
  }
  return cookie
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1))
  return sortedMs[index]!
}

export interface Timings {
  count: number
  p50: number
  p95: number
  max: number
}

/**
 * Runs `send(i)` one after another, at most `count` times and for at most `maxMs`, after `warmup`
 * untimed calls; each call must resolve to the HTTP status it got, and anything but `expect` fails.
 */
export async function timeSequential({
  count,
  maxMs,
  warmup = 3,
  expect = 200,
  send,
}: {
  count: number
  maxMs: number
  warmup?: number
  expect?: number
  send: (i: number) => Promise<BenchResponse>
}): Promise<Timings & { responses: BenchResponse[] }> {
  for (let i = 0; i < warmup; i++) await send(count + i)
  const samples: number[] = []
  const responses: BenchResponse[] = []
  const deadline = performance.now() + maxMs
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const started = performance.now()
    const response = await send(i)
    samples.push(performance.now() - started)
    if (response.status !== expect) {
      throw new Error(`expected ${expect}, got ${response.status}: ${response.body.toString().slice(0, 300)}`)
    }
    responses.push(response)
  }
  samples.sort((a, b) => a - b)
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: samples.at(-1) ?? NaN,
    responses,
  }
}
