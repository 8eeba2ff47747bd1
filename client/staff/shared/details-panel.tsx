import { useId, type ReactNode, type Ref } from 'react'

/**
 * 'Selected Submission Details', beside a list: its heading, its actions with Close last, then what the
 * open record (a claim, an intake) shows. It takes the focus when a record opens, hence tabIndex -1.
 */
export function DetailsPanel({
  actions,
  onClose,
  ref,
  children,
}: {
  /** Buttons before Close. */
  actions?: ReactNode
  onClose: () => void
  ref?: Ref<HTMLElement> | undefined
  children: ReactNode
}) {
  const headingId = useId()
  return (
    <section ref={ref} className="staff-panel details-panel" aria-labelledby={headingId} tabIndex={-1}>
      <div className="panel-heading">
        <h2 id={headingId}>Selected Submission Details</h2>
        <div className="panel-actions">
          {actions}
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      {children}
    </section>
  )
}

/** The details panel when the record could not be loaded: what went wrong and what to do. */
export function DetailsProblem({
  noun,
  message,
  onRetry,
  onClose,
  ref,
}: {
  /** What the list holds, as its texts name it: "claim", "submission". */
  noun: string
  message: string
  onRetry: () => void
  onClose: () => void
  ref?: Ref<HTMLElement> | undefined
}) {
  return (
    <DetailsPanel
      ref={ref}
      onClose={onClose}
      actions={
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      }
    >
      <p className="alert" role="alert">
        {`The ${noun}'s details could not be loaded: ${message}. Press Try again, or Refresh the list if the ${noun} was removed.`}
      </p>
    </DetailsPanel>
  )
}
