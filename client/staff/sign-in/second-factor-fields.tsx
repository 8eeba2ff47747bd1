import { useId, type Ref } from 'react'
import type { TwoFactorSetup } from '../../../src/api/staff-two-factor.ts'
import { CODE_REQUIRED_MESSAGE } from '../../../src/two-factor-messages.ts'
import { CodeField } from './code-field.tsx'
import { TotpSetupSteps } from './totp-setup-steps.tsx'

/**
 * What the gate asks after the password: a code (TOTP on), or, where TOTP must be set up first, the
 * code e-mailed to the account and then the set-up's first code.
 */
export type CodeStep =
  | { kind: 'code' }
  /** resent: a new code was asked for on this step, so only the newest works. */
  | { kind: 'email-code'; message: string; resent?: boolean }
  | { kind: 'setup'; setup: TwoFactorSetup; message: string }

/**
 * The gate's second step, below the password: the e-mailed code, then the set-up steps, when the
 * account must set TOTP up; then the code field; with TOTP on, a switch to type a recovery code instead.
 */
export function SecondFactorFields({
  step,
  inputRef,
  code,
  onCodeChange,
  isRecoveryCode,
  onRecoveryCodeChange,
  onNewEmailCode,
  errorId,
}: {
  step: CodeStep
  inputRef: Ref<HTMLInputElement>
  code: string
  onCodeChange: (code: string) => void
  isRecoveryCode: boolean
  onRecoveryCodeChange: (isRecoveryCode: boolean) => void
  /** Asks the server for a new e-mailed code (the email-code step's button). */
  onNewEmailCode: () => void
  /** The alert's id while it is about the code. */
  errorId: string | undefined
}) {
  const codeId = useId()
  const hintId = useId()
  return (
    <>
      {step.kind === 'setup' || step.kind === 'email-code' ? (
        <div className="totp-setup">
          <h2>Set up two-factor sign-in</h2>
          <p>{step.message}</p>
          {step.kind === 'email-code' && step.resent ? (
            <p role="status">We have sent a new code. Only the newest code works.</p>
          ) : null}
          {step.kind === 'setup' ? <TotpSetupSteps setup={step.setup} /> : null}
        </div>
      ) : null}
      <CodeField
        id={codeId}
        inputRef={inputRef}
        value={code}
        onChange={onCodeChange}
        kind={step.kind === 'email-code' ? 'email' : isRecoveryCode ? 'recovery' : 'app'}
        hint={
          step.kind === 'email-code'
            ? 'The e-mail went to the address of your staff account. It can take a minute to arrive.'
            : isRecoveryCode
              ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.'
              : CODE_REQUIRED_MESSAGE
        }
        hintId={hintId}
        errorId={errorId}
      />
      {step.kind === 'code' ? (
        <button
          type="button"
          className="secondary code-switch"
          onClick={() => onRecoveryCodeChange(!isRecoveryCode)}
        >
          {isRecoveryCode ? 'Use a code from my authenticator app' : 'Use a recovery code instead'}
        </button>
      ) : null}
      {step.kind === 'email-code' ? (
        <button type="button" className="secondary code-switch" onClick={onNewEmailCode}>
          Send a new code
        </button>
      ) : null}
    </>
  )
}
