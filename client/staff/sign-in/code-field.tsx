import './two-factor.css'
import type { Ref } from 'react'

/** Which code the field takes. */
export type CodeKind = 'app' | 'recovery' | 'email'

const LABELS: Record<CodeKind, string> = {
  app: 'Code',
  recovery: 'Recovery code',
  email: 'Code from the e-mail',
}
const LENGTHS: Record<CodeKind, number> = { app: 6, recovery: 20, email: 8 }

/**
 * The one-time code input: a 6-digit code from the authenticator app or the 8 digits of the set-up
 * e-mail (numeric keypad, filled in by the phone's one-time-code suggestion), or a recovery code
 * (letters and digits).
 */
export function CodeField({
  id,
  inputRef,
  value,
  onChange,
  kind = 'app',
  hint,
  hintId,
  errorId,
}: {
  id: string
  inputRef?: Ref<HTMLInputElement>
  value: string
  onChange: (value: string) => void
  kind?: CodeKind
  hint: string
  hintId: string
  /** The alert's id while an error about this field shows. */
  errorId?: string | undefined
}) {
  return (
    <div className="form-group">
      <label htmlFor={id}>{LABELS[kind]}</label>
      <p id={hintId} className="field-help">
        {hint}
      </p>
      <input
        ref={inputRef}
        id={id}
        className="form-control code-input"
        type="text"
        inputMode={kind === 'recovery' ? 'text' : 'numeric'}
        autoComplete={kind === 'recovery' ? 'off' : 'one-time-code'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={LENGTHS[kind]}
        required
        value={value}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}
