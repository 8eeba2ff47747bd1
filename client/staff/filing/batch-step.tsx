import { useId, type ReactNode } from 'react'

/** Where a step of the batches page stands: something to do now, waiting on another step or a day, or done. */
export type StepStateName = 'todo' | 'waiting' | 'done'

const STATE_WORDS: Record<StepStateName, string> = { todo: 'To do', waiting: 'Waiting', done: 'Done' }

/**
 * One numbered step of the batches page ("1. Build a notice batch"): its heading, its state in words
 * (never by colour alone) and what the step needs.
 */
export function BatchStep({
  number,
  title,
  state,
  children,
}: {
  number: number
  title: string
  /** Undefined while the step's figures load. */
  state: { state: StepStateName; text: string } | undefined
  children: ReactNode
}) {
  const id = useId()
  return (
    <li className="batch-step">
      <section aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`}>
          {number}. {title}
        </h2>
        {state ? (
          <p className={`step-state step-${state.state}`}>
            <strong className="step-badge">{STATE_WORDS[state.state]}</strong> {state.text}
          </p>
        ) : null}
        {children}
      </section>
    </li>
  )
}
