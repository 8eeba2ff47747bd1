import { parentPort } from 'node:worker_threads'
import { THREAD_READY, type ThreadReply, type ThreadRequest } from './request-thread.ts'

/** A thread's answer, and the buffers in it to move back to the server rather than copy. */
export interface Answer<Reply> {
  reply: Reply
  transfer?: ArrayBuffer[]
}

/**
 * Inside a request thread (startRequestThread): answers each request the server sends with `answer`,
 * or with the message of what it threw, and tells the server once it is ready.
 */
export function serveRequests<Request, Reply>(answer: (request: Request) => Promise<Answer<Reply>>): void {
  const port = parentPort!
  port.on('message', ({ id, request }: ThreadRequest<Request>) => {
    void answer(request).then(
      ({ reply, transfer }) => port.postMessage({ id, reply } satisfies ThreadReply<Reply>, transfer),
      (error: unknown) =>
        port.postMessage({
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies ThreadReply<Reply>),
    )
  })
  port.postMessage(THREAD_READY)
}
