import type { AgreementContext } from '../../src/agreement-context.ts'
import type { Locale } from '../../src/translate.ts'
import type { AgreementTemplates } from '../agreements/agreement-templates.ts'
import type { ClaimRecord, RecordParts } from '../evidence/sealed-record.ts'
import type { SignatureCheck } from '../uploads/check-png.ts'
import type { SniffedImage } from '../uploads/sniff-image.ts'
import { startRequestThread, threadEntry, type RequestThread } from '../threads/request-thread.ts'

/** What the content thread makes of a claim. */
export interface ClaimContent {
  /** The screenshot's bytes, handed back: the Buffer sent to the thread is left empty. */
  screenshot: Buffer
  /** The screenshot's type by its bytes; undefined when it is not an image a claim may carry. */
  image: SniffedImage | undefined
  /** Whether the signature is a PNG that decodes, with no markup in it, no larger than a pad makes. */
  signature: SignatureCheck
  /** The agreement as signed, as UTF-8, and its SHA-256 (hex). */
  htmlUtf8: Buffer
  sha256: string
  /** The screenshot's SHA-256 (hex). */
  screenshotSha256: string
  /** The claim's sealed record but for its id, which its insert gives (sealOfParts). */
  recordParts: RecordParts
}

/** What the claim's sealed record holds that the content check does not make. */
export type RecordInput = Omit<ClaimRecord, 'id' | 'agreement' | 'screenshot'>

/** What the intake's content thread check makes: its signature checked, its agreement rendered and hashed. */
export interface IntakeContent {
  signature: SignatureCheck
  html: string
  sha256: string
}

/** What a cure sends to be checked: a new screenshot, a new signature, or both. */
export interface CureContentRequest {
  screenshot: Buffer | undefined
  signature: string | undefined
}

/** What the content thread makes of a cure's uploads: what was sent, checked as a claim's is. */
export interface CureContent {
  /** The screenshot's bytes, handed back as a claim's are. */
  screenshot: Buffer | undefined
  image: SniffedImage | undefined
  screenshotSha256: string | undefined
  signature: SignatureCheck | undefined
}

/** Checks a cure's uploads (cureContentThreadChecker when the server runs). */
export type CureContentChecker = (request: CureContentRequest) => Promise<CureContent>

/** The messages between the server and the thread (claim-content-thread.ts). */
export type ContentRequest =
  | ({ kind: 'claim' } & Omit<ContentCheckRequest, 'screenshot'> & { screenshot: Uint8Array })
  | ({ kind: 'intake' } & IntakeContentRequest)
  | { kind: 'cure'; screenshot: Uint8Array | undefined; signature: string | undefined }
export type ContentReply =
  | (Omit<ClaimContent, 'screenshot' | 'htmlUtf8'> & { screenshot: Uint8Array; htmlUtf8: Uint8Array })
  | IntakeContent
  | (Omit<CureContent, 'screenshot'> & { screenshot: Uint8Array | undefined })

// requests asked of the content thread since the process started, for tests and diagnostics
let contentRequests = 0

/** How many checks this process has asked of the content thread. */
export function contentThreadRequestCount(): number {
  return contentRequests
}

/** One thread per set of templates (in practice one per process), started on first use. */
const threads = new Map<string, RequestThread<ContentRequest, ContentReply>>()

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

/** What the intake's check is given: its signature, and its agreement to render. */
export interface IntakeContentRequest {
  signature: string
  variant: string
  locale: Locale
  context: AgreementContext
}

/** Checks an intake's signature and renders its agreement (intakeContentThreadChecker when the server runs). */
export type IntakeContentChecker = (request: IntakeContentRequest) => Promise<IntakeContent>

/**
 * Checks a claim's screenshot (its type by magic bytes, no markup) and signature (a PNG that decodes),
 * and renders and hashes its agreement, in a worker thread: about a fifth of what a claim costs the
 * server's event loop, which every claim and page request shares, moved to a thread that does nothing
 * else. The screenshot's bytes are moved to the thread and back, not copied.
 */
export function contentThreadChecker(templates: AgreementTemplates): ContentChecker {
  return async ({ screenshot, ...rest }) => {
    // a Buffer may be a slice of a larger (pooled) one, which must not leave this thread: copy those
    const owned = ownsItsBuffer(screenshot) ? screenshot : new Uint8Array(screenshot)
    const reply = (await askContentThread(templates, { kind: 'claim', screenshot: owned, ...rest }, [
      owned.buffer as ArrayBuffer,
    ])) as Omit<ClaimContent, 'screenshot' | 'htmlUtf8'> & { screenshot: Uint8Array; htmlUtf8: Uint8Array }
    return { ...reply, screenshot: asBuffer(reply.screenshot), htmlUtf8: asBuffer(reply.htmlUtf8) }
  }
}

/**
 * Gives the screenshot's memory back once it is stored. V8 frees a buffer's bytes only when a collection
 * finds it dead, and a screenshot that outlives a scavenge (its claim waits on the disk's sync) would wait
 * for a full mark-compact; V8 starts one for every 64 MB of such bytes, and each marks the whole heap.
 * Moved into a clone that nothing holds, the bytes go at the next scavenge; the claim's Buffer is left
 * empty.
 */
export function releaseScreenshot({ screenshot }: ClaimContent): void {
  // a slice of a larger buffer (Node's shared pool) would take its neighbours along
  if (!ownsItsBuffer(screenshot)) return
  structuredClone(screenshot.buffer, { transfer: [screenshot.buffer] })
}

/** Whether the bytes are the whole of their ArrayBuffer, which can then be moved without moving others. */
function ownsItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** The intake's signature check and agreement, in the same thread as the claims': the same costs, off the event loop. */
export function intakeContentThreadChecker(templates: AgreementTemplates): IntakeContentChecker {
  return async (request) =>
    (await askContentThread(templates, { kind: 'intake', ...request })) as IntakeContent
}

/**
 * A cure's new screenshot and signature, checked by the same code in the same thread as a claim's: a
 * large image sent to a cure costs the event loop no more than one sent with a claim.
 */
export function cureContentThreadChecker(templates: AgreementTemplates): CureContentChecker {
  return async ({ screenshot, signature }) => {
    const owned =
      screenshot === undefined
        ? undefined
        : ownsItsBuffer(screenshot)
          ? screenshot
          : new Uint8Array(screenshot)
    const reply = (await askContentThread(
      templates,
      { kind: 'cure', screenshot: owned, signature },
      owned ? [owned.buffer as ArrayBuffer] : [],
    )) as Omit<CureContent, 'screenshot'> & { screenshot: Uint8Array | undefined }
    return { ...reply, screenshot: reply.screenshot && asBuffer(reply.screenshot) }
  }
}

function askContentThread(
  templates: AgreementTemplates,
  request: ContentRequest,
  transfer?: ArrayBuffer[],
): Promise<ContentReply> {
  contentRequests += 1
  return contentThread(templates).ask(request, transfer)
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

function contentThread(templates: AgreementTemplates): RequestThread<ContentRequest, ContentReply> {
  let thread = threads.get(templates.version)
  // a thread that failed or stopped is replaced for the next claim
  if (!thread || thread.ended) {
    thread = startRequestThread<ContentRequest, ContentReply>(
      threadEntry('claim-content-thread', import.meta.url),
      { sources: templates.sources },
    )
    threads.set(templates.version, thread)
  }
  return thread
}
