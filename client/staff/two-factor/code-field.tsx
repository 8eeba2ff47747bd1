import './two-factor.css'
import type { Ref } from 'react'

/**
 * The one-time code input: a 6-digit code from the authenticator app (numeric keypad, filled in by the
 * phone's one-time-code suggestion), or a recovery code (letters and digits) when `isRecovery`.
 */
export function CodeField({
  id,
  inputRef,
  value,
  onChange,
  isRecovery = false,
  hint,
  hintId,
  errorId,
}: {
  id: string
  inputRef?: Ref<HTMLInputElement>
  value: string
  onChange: (value: string) => void
  isRecovery?: boolean
  hint: string
  hintId: string
  /** The alert's id while an error about this field shows. */
  errorId?: string | undefined
}) {
  return (
    <div className="form-group">
      <label htmlFor={id}>{isRecovery ? 'Recovery code' : 'Code'}</label>
      <p id={hintId} className="field-help">
        {hint}
      </p>
      <input
        ref={inputRef}
        id={id}
        className="form-control code-input"
        type="text"
        inputMode={isRecovery ? 'text' : 'numeric'}
        autoComplete={isRecovery ? 'off' : 'one-time-code'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={isRecovery ? 20 : 6}
        required
        value={value}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}
