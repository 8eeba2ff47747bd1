import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { INVALID_PASSWORD_MESSAGE } from '../../../src/staff-messages.ts'
import { EMAIL_CODE_SENT_MESSAGE } from '../../../src/two-factor-messages.ts'
import { logInStaff } from '../shared/staff-api.ts'
import { RecoveryCodesNotice } from './recovery-codes-notice.tsx'
import { TextField } from '../../ui/text-field.tsx'
import { handedOverSetupCode, handOverSetupCode } from './handed-over-code.ts'
import { SecondFactorFields, type CodeStep } from './second-factor-fields.tsx'

/** After the password: nothing more, a code, or the e-mailed code and TOTP's set-up, then the recovery codes of a set-up. */
type SecondStep = { kind: 'none' } | CodeStep | { kind: 'recovery-codes'; codes: string[] }

/**
 * The sign-in gate. E-mail, password and code are only POSTed to the server, which answers with a
 * session cookie; nothing here knows or compares the password or the code.
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
  const inputId = useId()
  const errorId = useId()
  const emailRef = useRef<HTMLInputElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const codeRef = useRef<HTMLInputElement>(null)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  // a code handed over by the invitation page goes with the first password, so no e-mail is needed
  const [emailCode, setEmailCode] = useState(() => handedOverSetupCode() ?? '')
  const [isRecoveryCode, setIsRecoveryCode] = useState(false)
  const [step, setStep] = useState<SecondStep>({ kind: 'none' })
  const [isShown, setIsShown] = useState(false)
  const [isVerifying, setIsVerifying] = useState(false)
  const [error, setError] = useState<string | undefined>(problem)
  const [errorField, setErrorField] = useState<'password' | 'code'>('password')
  useEffect(() => {
    // the tab and the history name the sign-in, not the page behind it
    document.title = `Sign in · ${title}`
    emailRef.current?.focus()
  }, [title])
  const asksForCode = step.kind === 'code' || step.kind === 'setup' || step.kind === 'email-code'
  // the code field appears after the password, and changes at each step: move to it, as a person would
  useEffect(() => {
    if (asksForCode) codeRef.current?.focus()
  }, [asksForCode, step.kind, isRecoveryCode])
  const fieldCode = step.kind === 'email-code' ? emailCode : code

  /** newEmailCode: the password again without the e-mailed code, which has the server send a new one. */
  const submit = async (event?: FormEvent, { newEmailCode = false } = {}) => {
    event?.preventDefault()
    if (isVerifying) return
    setIsVerifying(true)
    setError(undefined)
    try {
      const answer = await logInStaff({
        email,
        password,
        ...(app ? { app } : {}),
        ...(step.kind === 'code' || step.kind === 'setup' ? { code } : {}),
        ...(emailCode !== '' && step.kind !== 'code' && !newEmailCode ? { emailCode } : {}),
      })
      setIsVerifying(false)
      if (!answer.isSignedIn) {
        setStep({ kind: 'setup', setup: answer.setup, message: answer.message })
        setIsRecoveryCode(false)
        setCode('')
        return
      }
      setPassword('')
      setCode('')
      setEmailCode('')
      handOverSetupCode(undefined)
      if (answer.recoveryCodes) setStep({ kind: 'recovery-codes', codes: answer.recoveryCodes })
      else onSignedIn()
    } catch (caught) {
      setIsVerifying(false)
      const appError = caught instanceof AppError ? caught : undefined
      if (appError?.code === 'TWO_FACTOR_REQUIRED') {
        setStep({ kind: 'code' })
        return
      }
      if (appError?.code === 'TWO_FACTOR_EMAIL_CODE_REQUIRED') {
        handOverSetupCode(undefined)
        setStep({ kind: 'email-code', message: appError.message, resent: newEmailCode })
        setEmailCode('')
        codeRef.current?.focus()
        return
      }
      if (appError?.code === 'INVALID_EMAIL_CODE') {
        // also when the e-mailed code ran out while the QR code was being scanned: ask for it again
        setStep((current) =>
          current.kind === 'email-code' ? current : { kind: 'email-code', message: EMAIL_CODE_SENT_MESSAGE },
        )
        setError(appError.message)
        setErrorField('code')
        codeRef.current?.select()
        return
      }
      if (appError?.code === 'INVALID_CODE') {
        setError(appError.message)
        setErrorField('code')
        codeRef.current?.select()
        return
      }
      if (appError?.status === 401) setError(INVALID_PASSWORD_MESSAGE)
      // a pause after failed sign-ins, or too many sign-ins being checked at once: the server says how long
      else if (appError?.status === 429 || appError?.code === 'MAIL_UNAVAILABLE' || appError?.code === 'BUSY')
        setError(appError.message)
      else setError(`Your sign-in could not be checked: ${(caught as Error).message}. Please try again.`)
      setErrorField('password')
      inputRef.current?.select()
    }
  }

  if (step.kind === 'recovery-codes') {
    return (
      <section className="card staff-gate">
        <header className="card-header">
          <h1>{title}</h1>
        </header>
        <div className="card-body">
          <p>Two-factor sign-in is now on for your account.</p>
          <RecoveryCodesNotice codes={step.codes} onContinue={onSignedIn} />
        </div>
      </section>
    )
  }

  const passwordError = error && errorField === 'password' ? errorId : undefined
  const codeError = error && errorField === 'code' ? errorId : undefined
  return (
    <section className="card staff-gate">
      <header className="card-header">
        <h1>{title}</h1>
        <p>Sign in with your staff account.</p>
      </header>
      <form className="card-body" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          inputRef={emailRef}
          value={email}
          onChange={setEmail}
          describedBy={passwordError}
        />
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
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError}
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
        {step.kind === 'code' || step.kind === 'setup' || step.kind === 'email-code' ? (
          <SecondFactorFields
            step={step}
            inputRef={codeRef}
            code={fieldCode}
            onCodeChange={step.kind === 'email-code' ? setEmailCode : setCode}
            isRecoveryCode={isRecoveryCode}
            onRecoveryCodeChange={(isRecovery) => {
              setIsRecoveryCode(isRecovery)
              setCode('')
              setError(undefined)
            }}
            onNewEmailCode={() => void submit(undefined, { newEmailCode: true })}
            errorId={codeError}
          />
        ) : null}
        {error ? (
          <p id={errorId} className="alert" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          className="submit"
          disabled={
            isVerifying || email.trim() === '' || password === '' || (asksForCode && fieldCode.trim() === '')
          }
        >
          {isVerifying
            ? 'Verifying...'
            : step.kind === 'email-code'
              ? 'Continue'
              : asksForCode
                ? 'Verify code'
                : 'Access Dashboard'}
        </button>
        <p className="hint">Authorized personnel only.</p>
      </form>
    </section>
  )
}
