import http from 'node:http'
import { readCpuTime, readRss } from './processes.ts'

export interface ExportResult {
  rows: number
  seconds: number
  rowsPerSecond: number
  megabytes: number
  rssBefore: number
  rssPeak: number
  /** Peak resident memory during the export minus the resident memory just before it. */
  rssGrowth: number
  /**
   * The server's CPU time (all its threads and processes) for the export, in seconds: steadier than the
   * wall time when other work shares the cores.
   */
  serverCpuSeconds: number
}

const RSS_SAMPLE_MS = 20
const EXPORT_TIMEOUT_MS = 15 * 60 * 1000

/**
 * Downloads an app's CSV export as fast as the client can read it, counting records, while sampling
 * the resident memory of the server (all its processes) from /proc.
 */
export async function benchExport({
  baseUrl,
  cookie,
  app,
  serverPid,
}: {
  baseUrl: string
  cookie: string
  app: string
  serverPid: number
}): Promise<ExportResult> {
  const rssBefore = readRss(serverPid)
  let rssPeak = rssBefore
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, readRss(serverPid))
  }, RSS_SAMPLE_MS)
  const cpuBefore = readCpuTime(serverPid).all
  const started = performance.now()
  try {
    const { lines, bytes } = await new Promise<{ lines: number; bytes: number }>((resolve, reject) => {
      const req = http.get(
        `${baseUrl}/api/staff/apps/${app}/export.csv`,
        { headers: { Cookie: cookie }, timeout: EXPORT_TIMEOUT_MS },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume()
            reject(new Error(`export answered ${res.statusCode}`))
            return
          }
          let lines = 0
          let bytes = 0
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
          })
          res.on('end', () => resolve({ lines, bytes }))
          res.on('error', reject)
        },
      )
      req.on('timeout', () => req.destroy(new Error('the export did not finish within 15 minutes')))
      req.on('error', reject)
    })
    const seconds = (performance.now() - started) / 1000
    rssPeak = Math.max(rssPeak, readRss(serverPid))
    const rows = lines - 1 // the header
    return {
      rows,
      seconds,
      rowsPerSecond: rows / seconds,
      megabytes: bytes / 1024 / 1024,
      rssBefore,
      rssPeak,
      rssGrowth: rssPeak - rssBefore,
      serverCpuSeconds: (readCpuTime(serverPid).all - cpuBefore) / 1000,
    }
  } finally {
    clearInterval(sampler)
  }
}
