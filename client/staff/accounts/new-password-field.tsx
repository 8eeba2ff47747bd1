import { useId, useState } from 'react'
import { PASSWORD_RULE } from '../../../src/api/staff-accounts.ts'

/** A password being chosen: the rule shown under the label before any typing, and a Show button. */
export function NewPasswordField({
  label,
  value,
  onChange,
  autoComplete = 'new-password',
  showRule = true,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  autoComplete?: 'new-password' | 'current-password'
  showRule?: boolean
}) {
  const inputId = useId()
  const ruleId = useId()
  const [isShown, setIsShown] = useState(false)
  return (
    <div className="form-group">
      <label htmlFor={inputId}>{label}</label>
      {showRule ? (
        <p id={ruleId} className="field-help">
          {PASSWORD_RULE}
        </p>
      ) : null}
      <div className="password-row">
        <input
          id={inputId}
          className="form-control"
          type={isShown ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoCapitalize="off"
          spellCheck={false}
          required
          value={value}
          aria-describedby={showRule ? ruleId : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        <button
          type="button"
          className="secondary"
          aria-pressed={isShown}
          aria-controls={inputId}
          aria-label={`Show ${label.toLowerCase()}`}
          onClick={() => setIsShown((shown) => !shown)}
        >
          {isShown ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  )
}
