import { useEffect, useRef, useState, type ReactNode } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { isUnauthorized } from '../shared/staff-api.ts'
import { sendCureRequests } from './batch-api.ts'

/** What the server refused, for the alert: what was tried, its message and the claims a cure request can fix. */
export interface Refusal {
  /** "The notice batch was not built" */
  what: string
  message: string
  claimIds: number[]
}

export function refusalOf(what: string, error: unknown): Refusal {
  return {
    what,
    message: error instanceof Error ? error.message : String(error),
    claimIds: error instanceof AppError ? (error.details?.claimIds ?? []) : [],
  }
}

/**
 * A staff form's one request at a time: whether it is on its way, the server's refusal for a
 * RefusalAlert, and the outcome's element (`outcomeRef`), which takes the focus once the request is
 * answered either way, so a keyboard or screen-reader user is told what came of it. `send` runs the
 * request; what it throws is shown as `refusedAs` ("The award was not set: …"), and a lost session
 * goes to `onUnauthorized`.
 */
export function useRefusableSend({
  onUnauthorized,
  focusOutcome = true,
}: {
  onUnauthorized: () => void
  focusOutcome?: boolean
}) {
  const [isSending, setIsSending] = useState(false)
  const [refusal, setRefusal] = useState<Refusal>()
  const outcomeRef = useRef<HTMLDivElement>(null)
  const [answered, setAnswered] = useState(0)
  useEffect(() => {
    if (focusOutcome && answered > 0) outcomeRef.current?.focus()
  }, [focusOutcome, answered])
  async function send(refusedAs: string, request: () => Promise<void>): Promise<void> {
    setIsSending(true)
    setRefusal(undefined)
    try {
      await request()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf(refusedAs, error))
    } finally {
      setIsSending(false)
      setAnswered((n) => n + 1)
    }
  }
  return { isSending, refusal, outcomeRef, send }
}

/**
 * A refusal as the server worded it. A message of several lines shows its lead ("3 of these claims
 * cannot go into the batch:") and then each other line as an item; one without a lead is each line an
 * item under what was tried; a one-line message follows what was tried.
 */
export function RefusalAlert({ refusal, children }: { refusal: Refusal; children?: ReactNode }) {
  const lines = refusal.message.split('\n').filter((line) => line.trim() !== '')
  const lead = lines.length > 1 && lines[0]!.endsWith(':') ? lines[0]! : undefined
  const items = lines.length > 1 ? lines.slice(lead ? 1 : 0) : []
  return (
    <div className="alert batch-problem" role="alert">
      <p>
        {lead
          ? `${lead.charAt(0).toUpperCase()}${lead.slice(1)}`
          : items.length > 0
            ? `${refusal.what}:`
            : `${refusal.what}: ${lines[0] ?? 'the server gave no reason'}.`}
      </p>
      {items.length > 0 ? (
        <ul>
          {items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      ) : null}
      {children}
    </div>
  )
}

/** What a press of a section's button came to: a line for its status, or a refusal for its alert. */
export type Outcome = { isDone: true; message: string } | { isDone: false; refusal: Refusal }

/**
 * "Send these claimants a cure request": each claim named becomes deficient and its claimant is asked
 * for what it lacks. The section says how many went, or why none did: the button goes with the claims.
 */
export function CureRequestButton({
  slug,
  claimIds,
  onOutcome,
  onUnauthorized,
}: {
  slug: string
  claimIds: number[]
  onOutcome: (outcome: Outcome) => void
  onUnauthorized: () => void
}) {
  const [isSending, setIsSending] = useState(false)
  async function send() {
    setIsSending(true)
    try {
      const { sent } = await sendCureRequests({ slug, claimIds })
      onOutcome({ isDone: true, message: `Cure requests sent to ${sent} claimant${sent === 1 ? '' : 's'}.` })
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      onOutcome({ isDone: false, refusal: refusalOf('The cure requests were not sent', error) })
    } finally {
      setIsSending(false)
    }
  }
  return (
    <button type="button" className="secondary" disabled={isSending} onClick={() => void send()}>
      {isSending ? 'Sending…' : 'Send these claimants a cure request'}
    </button>
  )
}
