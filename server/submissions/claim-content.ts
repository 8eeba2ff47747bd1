import { Worker } from 'node:worker_threads'
import type { AgreementContext } from '../../src/agreement-context.ts'
import type { Locale } from '../../src/translate.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { ClaimRecord, RecordParts } from '../evidence/sealed-record.ts'
import type { SignatureCheck } from '../uploads/check-png.ts'
import type { SniffedImage } from '../uploads/sniff-image.ts'

/** What the content thread makes of a claim. */
export interface ClaimContent {
  /** The screenshot's bytes, handed back: the Buffer sent to the thread is left empty. */
  screenshot: Buffer
  /** The screenshot's type by its bytes; undefined when it is not an image a claim may carry. */
  image: SniffedImage | undefined
  /** Whether the signature is a PNG that decodes, with no markup in it, no larger than a pad makes. */
  signature: SignatureCheck
  /** The agreement as signed, and its SHA-256 (hex). */
  html: string
  sha256: string
  /** The screenshot's SHA-256 (hex). */
  screenshotSha256: string
  /** The claim's sealed record but for its id, which its insert gives (sealOfParts). */
  recordParts: RecordParts
}

/** What the claim's sealed record holds that the content check does not make. */
export type RecordInput = Omit<ClaimRecord, 'id' | 'agreement' | 'screenshot'>

/** The messages between the server and the thread (claim-content-thread.ts). */
export interface ContentRequest {
  id: number
  screenshot: Uint8Array
  signature: string
  variant: string
  locale: Locale
  context: AgreementContext
  record: RecordInput
}
/** The thread's first message, once it has loaded; then one reply per request. */
export const READY = 'ready'
export type ContentReply = { id: number; screenshot: Uint8Array } & (
  Omit<ClaimContent, 'screenshot'> | { error: string }
)

interface ContentThread {
  /** Settles once the thread has loaded (rejects if it could not). */
  ready: Promise<void>
  check: ContentChecker
  stop(): Promise<void>
}

/** One thread per set of templates (in practice one per process), started on first use. */
const threads = new Map<string, ContentThread>()

/** What a content check is given: the claim's screenshot and signature, and its agreement to render. */
export interface ContentCheckRequest {
  screenshot: Buffer
  signature: string
  variant: string
  locale: Locale
  context: AgreementContext
  record: RecordInput
}

/** Checks a claim's content; the claim path is given one (contentThreadChecker when the server runs). */
export type ContentChecker = (request: ContentCheckRequest) => Promise<ClaimContent>

/**
 * Checks a claim's screenshot (its type by magic bytes, no markup) and signature (a PNG that decodes),
 * and renders and hashes its agreement, in a worker thread: about a fifth of what a claim costs the
 * server's event loop, which every claim and page request shares, moved to a thread that does nothing
 * else. The screenshot's bytes are moved to the thread and back, not copied.
 */
export function contentThreadChecker(templates: AgreementTemplates): ContentChecker {
  return (request) => contentThread(templates).check(request)
}

/** Starts the thread now (server start-up) and waits until it has loaded, so no claim waits for that. */
export async function startContentThread(templates: AgreementTemplates): Promise<void> {
  await contentThread(templates).ready
}

/** Stops the thread (server shutdown); a claim after this starts a new one. */
export async function stopContentThreads(): Promise<void> {
  const stopping = [...threads.values()].map((thread) => thread.stop())
  threads.clear()
  await Promise.all(stopping)
}

function contentThread(templates: AgreementTemplates): ContentThread {
  let thread = threads.get(templates.version)
  if (!thread) {
    thread = startThread(templates)
    threads.set(templates.version, thread)
  }
  return thread
}

/**
 * Compiled (npm run build), the thread's code is plain JavaScript beside this file; from source, a small
 * .mjs first gives the thread tsx's TypeScript loader, which a worker does not inherit.
 */
const THREAD_ENTRY = import.meta.url.endsWith('.js')
  ? './claim-content-thread.js'
  : './claim-content-thread.mjs'

function startThread(templates: AgreementTemplates): ContentThread {
  const worker = new Worker(new URL(THREAD_ENTRY, import.meta.url), {
    workerData: { sources: templates.sources },
  })
  // kept alive only while a claim waits for it
  worker.unref()
  const waiting = new Map<number, { resolve(content: ClaimContent): void; reject(error: Error): void }>()
  let nextId = 0
  let ended: Error | undefined
  let loaded: () => void = () => undefined
  let failed: (error: Error) => void = () => undefined
  const ready = new Promise<void>((resolve, reject) => {
    loaded = resolve
    failed = reject
  })
  ready.catch(() => undefined) // nobody need wait for it: a claim gets the same error
  const end = (error: Error) => {
    ended ??= error
    failed(ended)
    // the next claim starts a new thread
    if (threads.get(templates.version) === thread) threads.delete(templates.version)
    for (const claim of waiting.values()) claim.reject(ended)
    waiting.clear()
  }
  worker.on('message', (reply: ContentReply | typeof READY) => {
    if (reply === READY) return loaded()
    const claim = waiting.get(reply.id)
    waiting.delete(reply.id)
    if (waiting.size === 0) worker.unref()
    if (!claim) return
    const screenshot = Buffer.from(
      reply.screenshot.buffer,
      reply.screenshot.byteOffset,
      reply.screenshot.byteLength,
    )
    if ('error' in reply) claim.reject(new Error(reply.error))
    else claim.resolve({ ...reply, screenshot })
  })
  worker.on('error', end)
  worker.on('exit', (code) => end(new Error(`the claim content thread stopped (exit code ${code})`)))
  const thread: ContentThread = {
    ready,
    async stop() {
      await worker.terminate()
    },
    check({ screenshot, ...rest }) {
      if (ended) return Promise.reject(ended)
      const id = nextId++
      // a Buffer may be a slice of a larger (pooled) one, which must not leave this thread: copy those
      const owned =
        screenshot.byteOffset === 0 && screenshot.byteLength === screenshot.buffer.byteLength
          ? screenshot
          : new Uint8Array(screenshot)
      return new Promise<ClaimContent>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.ref()
        const request: ContentRequest = { id, screenshot: owned, ...rest }
        worker.postMessage(request, [owned.buffer as ArrayBuffer])
      })
    },
  }
  return thread
}
