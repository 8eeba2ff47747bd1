import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { CODE_REQUIRED_MESSAGE } from '../../../src/two-factor-messages.ts'
import { CodeField } from '../sign-in/code-field.tsx'

/**
 * A code from the authenticator app and one button: each change of the set-up page asks for a current
 * code, so an open session alone cannot change it. A refusal shows in an alert and the code is
 * selected to type again.
 */
export function CodeForm({
  submitLabel,
  onSubmit,
  onUnauthorized,
  isFocused = false,
  className = 'secondary',
}: {
  submitLabel: string
  onSubmit: (code: string) => Promise<void>
  /** The session ended meanwhile: show the gate. */
  onUnauthorized: () => void
  /** Move the focus here when the form appears (it followed a button press). */
  isFocused?: boolean
  className?: string
}) {
  const codeId = useId()
  const hintId = useId()
  const errorId = useId()
  const codeRef = useRef<HTMLInputElement>(null)
  const [code, setCode] = useState('')
  const [isSending, setIsSending] = useState(false)
  const [error, setError] = useState<string>()
  useEffect(() => {
    if (isFocused) codeRef.current?.focus()
  }, [isFocused])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isSending) return
    setIsSending(true)
    setError(undefined)
    try {
      await onSubmit(code)
    } catch (caught) {
      if (caught instanceof AppError && caught.status === 401) {
        onUnauthorized()
        return
      }
      setError(
        caught instanceof AppError
          ? caught.message
          : `The server could not be reached: ${(caught as Error).message}`,
      )
      setIsSending(false)
      codeRef.current?.select()
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <CodeField
        id={codeId}
        inputRef={codeRef}
        value={code}
        onChange={setCode}
        hint={CODE_REQUIRED_MESSAGE}
        hintId={hintId}
        errorId={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="alert" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className={className} disabled={isSending || code.trim() === ''}>
        {isSending ? 'Checking...' : submitLabel}
      </button>
    </form>
  )
}
