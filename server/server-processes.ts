import cluster, { type Worker } from 'node:cluster'
import type { Logger } from './logger.ts'

// a process that keeps dying (a broken disk, a bad deploy) must not be restarted for ever
const RESTART_LIMIT = 5
const RESTART_WINDOW_MS = 60_000
const STOP_GRACE_MS = 15_000

export interface ServerProcesses {
  /** The address every process shares. */
  port: number
  /** Stops every process (each finishes the requests it holds), then resolves. */
  close(): Promise<void>
}

/**
 * Forks `count` copies of this script as server processes sharing one port: the primary accepts each
 * connection and hands it to the next process in turn. Every process works on the same data (SQLite
 * in WAL mode or PostgreSQL); nothing is kept in one process's memory that another needs (sessions,
 * rate limits and the e-mail queue are in the database).
 *
 * Resolves once all of them listen; if one exits before that, the others are stopped and it rejects.
 * A process that stops later is replaced, unless more than 5 stop within a minute: then all are
 * stopped and `onGiveUp` is called.
 */
export function forkServerProcesses({
  count,
  logger,
  onGiveUp,
}: {
  count: number
  logger: Logger
  onGiveUp: (reason: string) => void
}): Promise<ServerProcesses> {
  const workers = new Set<Worker>()
  const recentExits: number[] = []
  let stopping: Promise<void> | undefined
  let started = false

  const stopAll = (): Promise<void> => {
    stopping ??= Promise.all(
      [...workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve()
            const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS)
            worker.once('exit', () => {
              clearTimeout(timer)
              resolve()
            })
            worker.process.kill('SIGTERM')
          }),
      ),
    ).then(() => undefined)
    return stopping
  }

  return new Promise<ServerProcesses>((resolve, reject) => {
    let listening = 0
    let port = 0
    const fork = () => {
      const worker = cluster.fork()
      workers.add(worker)
      worker.once('listening', (address) => {
        port = address.port
        listening += 1
        if (!started && listening === count) {
          started = true
          resolve({ port, close: stopAll })
        }
      })
      worker.once('exit', (code, signal) => {
        workers.delete(worker)
        if (stopping) return
        const how = signal ? `signal ${signal}` : `exit code ${code}`
        if (!started) {
          void stopAll().then(() => reject(new Error(`a server process stopped while starting (${how})`)))
          return
        }
        const now = Date.now()
        recentExits.push(now)
        while (recentExits[0]! < now - RESTART_WINDOW_MS) recentExits.shift()
        if (recentExits.length > RESTART_LIMIT) {
          logger.error(
            { pid: worker.process.pid, code, signal },
            'server process stopped; too many stops, giving up',
          )
          void stopAll().then(() =>
            onGiveUp(`${recentExits.length} server processes stopped within a minute (the last: ${how})`),
          )
          return
        }
        logger.error({ pid: worker.process.pid, code, signal }, 'server process stopped; starting another')
        fork()
      })
    }
    for (let i = 0; i < count; i++) fork()
  })
}
