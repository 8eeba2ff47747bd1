import { useEffect, useId, useRef } from 'react'

/** Every key the dashboard answers, as the `?` sheet lists them. */
export const DASHBOARD_SHORTCUTS: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ['j', '↓'], action: 'Open the next claim (↓ with the focus in the list)' },
  { keys: ['k', '↑'], action: 'Open the previous claim (↑ with the focus in the list)' },
  { keys: ['1', '…', '9'], action: 'Choose a move for the open claim' },
  { keys: ['Enter'], action: 'Make the chosen move; the next claim opens' },
  { keys: ['z'], action: "Zoom the open claim's screenshot in and out" },
  { keys: ['/'], action: 'Search' },
  { keys: ['Esc'], action: 'Close the open claim (or this sheet)' },
  { keys: ['?'], action: 'Show these keys' },
]

/**
 * The `?` sheet: a modal dialog listing every shortcut. Esc or Close shuts it, and the focus goes back
 * where it was when it opened.
 */
export function ShortcutSheet({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog || !isOpen) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.showModal()
    return () => {
      dialog.close()
      opener?.focus({ preventScroll: true })
    }
  }, [isOpen])
  return (
    <dialog
      ref={ref}
      className="shortcut-sheet"
      aria-labelledby={`${id}-title`}
      // Esc: the browser closes the dialog; the state follows
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
      <dl>
        {DASHBOARD_SHORTCUTS.map(({ keys, action }) => (
          <div key={action}>
            <dt>{keys.map((key, i) => (key === '…' ? <span key={i}>–</span> : <kbd key={i}>{key}</kbd>))}</dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="secondary" onClick={onClose} autoFocus>
        Close
      </button>
    </dialog>
  )
}
