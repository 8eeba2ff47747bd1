import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { AppError } from '../../src/app-error.ts'
import { INVALID_PASSWORD_MESSAGE } from '../../src/staff-messages.ts'
import { logInStaff } from './staff-api.ts'

/**
 * The sign-in gate. E-mail and password are only POSTed to the server, which answers with a session
 * cookie; nothing here knows or compares the password.
 */
export function StaffGate({
  title,
  app,
  problem,
  onSignedIn,
}: {
  title: string
  /** The app's slug, for the server's audit log; none on the main page. */
  app?: string
  /** A message to show before any attempt, e.g. the session check failed. */
  problem?: string | undefined
  onSignedIn: () => void
}) {
  const emailId = useId()
  const inputId = useId()
  const errorId = useId()
  const emailRef = useRef<HTMLInputElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [isShown, setIsShown] = useState(false)
  const [isVerifying, setIsVerifying] = useState(false)
  const [error, setError] = useState<string | undefined>(problem)
  useEffect(() => {
    document.title = title
    emailRef.current?.focus()
  }, [title])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isVerifying) return
    setIsVerifying(true)
    setError(undefined)
    try {
      await logInStaff({ email, password, ...(app ? { app } : {}) })
      setPassword('')
      onSignedIn()
    } catch (caught) {
      const appError = caught instanceof AppError ? caught : undefined
      if (appError?.status === 401) setError(INVALID_PASSWORD_MESSAGE)
      else if (appError?.status === 429) setError(appError.message)
      else setError(`Your sign-in could not be checked: ${(caught as Error).message}. Please try again.`)
      setIsVerifying(false)
      inputRef.current?.select()
    }
  }

  return (
    <section className="card staff-gate">
      <header className="card-header">
        <h1>{title}</h1>
      </header>
      <form className="card-body" onSubmit={(event) => void submit(event)} noValidate>
        <div className="form-group">
          <label htmlFor={emailId}>Email</label>
          <input
            ref={emailRef}
            id={emailId}
            className="form-control"
            type="email"
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            required
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="form-group">
          <label htmlFor={inputId}>Password</label>
          <div className="password-row">
            <input
              ref={inputRef}
              id={inputId}
              className="form-control"
              type={isShown ? 'text' : 'password'}
              autoComplete="current-password"
              autoCapitalize="off"
              spellCheck={false}
              required
              value={password}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => setPassword(event.target.value)}
            />
            <button
              type="button"
              className="secondary"
              aria-pressed={isShown}
              aria-controls={inputId}
              onClick={() => setIsShown((shown) => !shown)}
            >
              {isShown ? 'Hide' : 'Show'}
            </button>
          </div>
        </div>
        {error ? (
          <p id={errorId} className="alert" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          className="submit"
          disabled={isVerifying || email.trim() === '' || password === ''}
        >
          {isVerifying ? 'Verifying...' : 'Access Dashboard'}
        </button>
        <p className="hint">Authorized personnel only.</p>
      </form>
    </section>
  )
}
