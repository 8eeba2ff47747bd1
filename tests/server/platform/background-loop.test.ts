import { EventEmitter } from 'node:events'
import type { NextFunction, Request, Response } from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { backgroundLoop, type BackgroundLoop } from '../../../server/jobs/background-loop.ts'
import { createLogger } from '../../../server/logger.ts'
import { requestActivity, type RequestActivity } from '../../../server/request-activity.ts'

/** A request as the tracking middleware sees it: a response that finishes when told. */
function startRequest(requests: RequestActivity): { finish(): void } {
  const res = new EventEmitter()
  requests.track({} as Request, res as unknown as Response, (() => undefined) as NextFunction)
  return { finish: () => res.emit('finish') }
}

/** Whether the promise has settled once the timers and I/O queued so far have run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  void promise.then(() => (settled = true))
  await new Promise((resolve) => setTimeout(resolve, 100))
  return settled
}

describe("the background work's quiet moments", () => {
  let loop: BackgroundLoop | undefined
  afterEach(async () => {
    await loop?.stop()
  })

  function startLoop(requests?: RequestActivity): BackgroundLoop {
    loop = backgroundLoop({
      work: async () => undefined,
      pollMs: 60_000,
      logger: createLogger('silent'),
      failure: 'work failed',
      requests,
    })
    return loop
  }

  it('waits while a request is under way, and goes once it has ended', async () => {
    const requests = requestActivity()
    const request = startRequest(requests)
    const quiet = startLoop(requests).quietMoment()
    expect(await settledYet(quiet)).toBe(false)
    request.finish()
    expect(await settledYet(quiet)).toBe(true)
  })

  it('goes at its deadline though requests keep coming', async () => {
    const requests = requestActivity()
    startRequest(requests)
    await startLoop(requests).quietMoment(Date.now() + 50)
  })

  it('goes once stopped', async () => {
    const requests = requestActivity()
    startRequest(requests)
    const stopping = startLoop(requests)
    const quiet = stopping.quietMoment()
    await stopping.stop()
    await quiet
  })
})
