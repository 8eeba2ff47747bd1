import { useEffect, useRef } from 'react'

/**
 * Asks before a claim is moved as a duplicate, naming it and the claim it duplicates. A modal native
 * dialog: focus stays inside, Esc cancels, and focus returns to the button that opened it. Cancel takes
 * focus first, so a second Enter does not reject a claim unread.
 */
export function DuplicateConfirmDialog({
  claimId,
  otherId,
  moveLabel,
  onConfirm,
  onCancel,
}: {
  claimId: number
  otherId: number
  /** The duplicate move's status label, "Rejected" by default. */
  moveLabel: string
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    // the dialog leaves the page on closing, before the browser could hand focus back itself
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined
    if (element && !element.open) element.showModal()
    return () => {
      element?.close()
      opener?.focus()
    }
  }, [])
  const isReject = moveLabel.toLowerCase() === 'rejected'
  const question = isReject
    ? `Reject claim ${claimId} as a duplicate of claim ${otherId}?`
    : `Move claim ${claimId} to ${moveLabel} as a duplicate of claim ${otherId}?`
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby="duplicate-confirm-title"
      aria-describedby="duplicate-confirm-detail"
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <h2 id="duplicate-confirm-title">{question}</h2>
      <p id="duplicate-confirm-detail">
        Claim {claimId} moves to {moveLabel}, its note naming claim {otherId}; claim {otherId} stays as it is.
      </p>
      <div className="action-row">
        <button type="button" className="secondary" autoFocus onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          {isReject ? `Reject claim ${claimId}` : `Move claim ${claimId}`}
        </button>
      </div>
    </dialog>
  )
}
