import { type ResourceLimits, Worker } from 'node:worker_threads'

/** What the server sends a request thread, and what the thread answers (serve-requests.ts). */
export interface ThreadRequest<Request> {
  id: number
  request: Request
}
export type ThreadReply<Reply> = { id: number; reply: Reply } | { id: number; error: string }
/** A thread's first message, once it has loaded; then one reply per request. */
export const THREAD_READY = 'ready'

/** A worker thread that answers requests, one reply each, in its own time. */
export interface RequestThread<Request, Reply> {
  /** Settles once the thread has loaded (rejects if it could not). */
  ready: Promise<void>
  /** Whether the thread has stopped or failed: a caller then starts a new one. */
  readonly ended: boolean
  /** `transfer` lists buffers moved to the thread rather than copied; the caller must not use them after. */
  ask(request: Request, transfer?: ArrayBuffer[]): Promise<Reply>
  stop(): Promise<void>
}

/**
 * The file a thread starts from: compiled (npm run build), the thread's code is plain JavaScript beside
 * the caller; from source, a small .mjs of the same name first gives the thread tsx's TypeScript loader,
 * which a worker does not inherit.
 */
export function threadEntry(name: string, callerUrl: string): URL {
  return new URL(callerUrl.endsWith('.js') ? `./${name}.js` : `./${name}.mjs`, callerUrl)
}

/**
 * Starts a worker thread that serves requests. It keeps the process alive only while a request waits
 * for it; if it fails or exits, every waiting request and every later one is refused with the reason.
 */
export function startRequestThread<Request, Reply>(
  entry: URL,
  workerData: unknown,
  /** A ceiling on the thread's heap: V8 then collects before it grows to its default, far larger, size. */
  resourceLimits?: ResourceLimits,
): RequestThread<Request, Reply> {
  const worker = new Worker(entry, { workerData, ...(resourceLimits ? { resourceLimits } : {}) })
  worker.unref()
  const waiting = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>()
  let nextId = 0
  let ended: Error | undefined
  let loaded: () => void = () => undefined
  let failed: (error: Error) => void = () => undefined
  const ready = new Promise<void>((resolve, reject) => {
    loaded = resolve
    failed = reject
  })
  ready.catch(() => undefined) // nobody need wait for it: a request gets the same error
  const end = (error: Error) => {
    ended ??= error
    failed(ended)
    for (const request of waiting.values()) request.reject(ended)
    waiting.clear()
  }
  worker.on('message', (message: ThreadReply<Reply> | typeof THREAD_READY) => {
    if (message === THREAD_READY) return loaded()
    const request = waiting.get(message.id)
    waiting.delete(message.id)
    if (waiting.size === 0) worker.unref()
    if (!request) return
    if ('error' in message) request.reject(new Error(message.error))
    else request.resolve(message.reply)
  })
  worker.on('error', end)
  worker.on('exit', (code) =>
    end(new Error(`the ${entry.pathname.split('/').pop()} thread stopped (exit code ${code})`)),
  )
  return {
    ready,
    get ended() {
      return ended !== undefined
    },
    ask(request, transfer = []) {
      if (ended) return Promise.reject(ended)
      const id = nextId++
      return new Promise<Reply>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.ref()
        worker.postMessage({ id, request } satisfies ThreadRequest<Request>, transfer)
      })
    },
    async stop() {
      await worker.terminate()
    },
  }
}
