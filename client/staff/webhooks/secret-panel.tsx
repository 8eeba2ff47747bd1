import { useEffect, useId, useRef, useState } from 'react'
import type { CreatedWebhook } from '../../../src/api/webhooks.ts'

/** The new endpoint's secret, shown this once: the server keeps no copy it could show again. */
export function SecretPanel({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  const headingId = useId()
  const fieldId = useId()
  const hintId = useId()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const fieldRef = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<string>()
  useEffect(() => headingRef.current?.focus(), [])

  const copy = async () => {
    fieldRef.current?.select()
    try {
      await navigator.clipboard.writeText(created.secret)
      setCopied('Copied to the clipboard.')
    } catch {
      // a plain-HTTP site has no clipboard API: the text is selected for the keyboard's copy instead
      setCopied('The secret is selected: press Ctrl+C (⌘C on a Mac) to copy it.')
    }
  }

  return (
    <section className="staff-panel webhook-secret" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        Endpoint added: copy its secret now
      </h2>
      <p id={hintId}>
        Events to <span className="webhook-url">{created.endpoint.url}</span> are signed with this secret.
        Paste it into the receiving system now: it is shown only this once. If it is lost, delete the endpoint
        and add it again.
      </p>
      <div className="form-group">
        <label htmlFor={fieldId}>Signing secret</label>
        <input
          ref={fieldRef}
          id={fieldId}
          className="form-control webhook-secret-value"
          readOnly
          value={created.secret}
          aria-describedby={hintId}
          onFocus={(event) => event.target.select()}
        />
      </div>
      <div className="action-row">
        <button type="button" className="primary" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      <div aria-live="polite">{copied ? <p className="field-help">{copied}</p> : null}</div>
    </section>
  )
}
