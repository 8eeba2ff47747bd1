import { useId, type Ref } from 'react'
import type { TwoFactorSetup } from '../../../src/api/staff-two-factor.ts'
import { CODE_REQUIRED_MESSAGE } from '../../../src/two-factor-messages.ts'
import { CodeField } from './code-field.tsx'
import { TotpSetupSteps } from './totp-setup-steps.tsx'

/** What the gate asks after the password: a code (TOTP on), or setting TOTP up first. */
export type CodeStep = { kind: 'code' } | { kind: 'setup'; setup: TwoFactorSetup; message: string }

/**
 * The gate's second step, below the password: the set-up steps when the account must set TOTP up, then
 * the code field; with TOTP on, a switch to type a recovery code instead.
 */
export function SecondFactorFields({
  step,
  inputRef,
  code,
  onCodeChange,
  isRecoveryCode,
  onRecoveryCodeChange,
  errorId,
}: {
  step: CodeStep
  inputRef: Ref<HTMLInputElement>
  code: string
  onCodeChange: (code: string) => void
  isRecoveryCode: boolean
  onRecoveryCodeChange: (isRecoveryCode: boolean) => void
  /** The alert's id while it is about the code. */
  errorId: string | undefined
}) {
  const codeId = useId()
  const hintId = useId()
  return (
    <>
      {step.kind === 'setup' ? (
        <div className="totp-setup">
          <h2>Set up two-factor sign-in</h2>
          <p>{step.message}</p>
          <TotpSetupSteps setup={step.setup} />
        </div>
      ) : null}
      <CodeField
        id={codeId}
        inputRef={inputRef}
        value={code}
        onChange={onCodeChange}
        isRecovery={isRecoveryCode}
        hint={
          isRecoveryCode
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
    </>
  )
}
