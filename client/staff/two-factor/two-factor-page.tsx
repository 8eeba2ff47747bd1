import { useEffect, useState, type FormEvent } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { StaffArea } from '../sign-in/staff-area.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { Loading } from '../../ui/loading.tsx'
import { NewPasswordField } from '../accounts/new-password-field.tsx'
import { CodeForm } from './code-form.tsx'
import { RecoveryCodesNotice } from '../sign-in/recovery-codes-notice.tsx'
import { TotpSetupSteps } from '../sign-in/totp-setup-steps.tsx'
import {
  confirmTwoFactor,
  disableTwoFactor,
  fetchTwoFactorStatus,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from './two-factor-api.ts'
import { StaffHeader } from '../sign-in/staff-header.tsx'

const TITLE = 'Two-factor sign-in'

/** /staff/two-factor: the signed-in person's own two-factor sign-in. */
export function TwoFactorPage() {
  return <StaffArea gateTitle={TITLE}>{(session) => <TwoFactorSettings session={session} />}</StaffArea>
}

/** What the page shows below the status: the status alone, a set-up under way, or new recovery codes. */
type Screen =
  | { kind: 'status' }
  /** password: the one the set-up started with, sent again with the first code */
  | { kind: 'setup'; setup: TwoFactorSetup; password: string }
  | { kind: 'codes'; codes: string[] }

function TwoFactorSettings({ session }: { session: StaffSession }) {
  const [version, setVersion] = useState(0)
  const [screen, setScreen] = useState<Screen>({ kind: 'status' })
  const [notice, setNotice] = useState<string>()
  const [problem, setProblem] = useState<string>()
  useEffect(() => {
    document.title = TITLE
  }, [])
  const status = useStaffResource({
    key: String(version),
    load: (signal) => fetchTwoFactorStatus({ signal }),
    onUnauthorized: session.expired,
  })
  const reload = (message?: string) => {
    setNotice(message)
    setScreen({ kind: 'status' })
    setVersion((count) => count + 1)
  }
  const startSetup = async (password: string) => {
    setProblem(undefined)
    try {
      setScreen({ kind: 'setup', setup: await startTwoFactorSetup(password), password })
    } catch (error) {
      if (error instanceof AppError && error.status === 401) session.expired()
      // the server's own words for a wrong password, a pause after failures or a busy moment
      else if (error instanceof AppError && [403, 429, 503].includes(error.status)) setProblem(error.message)
      else setProblem(`The set-up could not start: ${(error as Error).message}. Please try again.`)
    }
  }

  return (
    <article className="card two-factor-page">
      <StaffHeader
        title={TITLE}
        lead="A code from an authenticator app on your phone, asked for after your password."
        session={session}
      />
      <div className="card-body">
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        {problem ? (
          <p className="alert" role="alert">
            {problem}
          </p>
        ) : null}
        {status.status === 'failed' ? (
          <div className="alert" role="alert">
            <p>Your two-factor settings could not be loaded ({status.message}).</p>
            <button type="button" className="secondary" onClick={() => reload()}>
              Try again
            </button>
          </div>
        ) : screen.kind === 'codes' ? (
          <RecoveryCodesNotice codes={screen.codes} onContinue={() => reload()} />
        ) : screen.kind === 'setup' ? (
          <section className="totp-setup" aria-labelledby="totp-setup-heading">
            <h2 id="totp-setup-heading">Turn on two-factor sign-in</h2>
            <TotpSetupSteps setup={screen.setup} />
            <CodeForm
              submitLabel="Turn on"
              className="submit"
              isFocused
              onUnauthorized={session.expired}
              onSubmit={async (code) => {
                const { recoveryCodes } = await confirmTwoFactor({ code, password: screen.password })
                setNotice('Two-factor sign-in is now on for your account.')
                setScreen({ kind: 'codes', codes: recoveryCodes })
              }}
            />
          </section>
        ) : !status.data ? (
          <Loading label="Loading your two-factor settings..." />
        ) : (
          <TwoFactorStatusView
            status={status.data}
            onStartSetup={startSetup}
            onUnauthorized={session.expired}
            onNewCodes={(codes) => setScreen({ kind: 'codes', codes })}
            onDisabled={() => reload('Two-factor sign-in is now off. Your other sessions were signed out.')}
          />
        )}
      </div>
    </article>
  )
}

function TwoFactorStatusView({
  status,
  onStartSetup,
  onUnauthorized,
  onNewCodes,
  onDisabled,
}: {
  status: TwoFactorStatus
  onStartSetup: (password: string) => Promise<void>
  onUnauthorized: () => void
  onNewCodes: (codes: string[]) => void
  onDisabled: () => void
}) {
  if (!status.enabled) return <StartSetupForm onStartSetup={onStartSetup} />
  return (
    <>
      <p>
        <strong>Two-factor sign-in is on.</strong> You have {status.recoveryCodesLeft} unused recovery{' '}
        {status.recoveryCodesLeft === 1 ? 'code' : 'codes'}.
      </p>
      <section aria-labelledby="new-codes-heading" className="two-factor-action">
        <h2 id="new-codes-heading">New recovery codes</h2>
        <p>Ten new codes replace all of the old ones.</p>
        <CodeForm
          submitLabel="Make new recovery codes"
          onUnauthorized={onUnauthorized}
          onSubmit={async (code) => onNewCodes((await regenerateRecoveryCodes(code)).recoveryCodes)}
        />
      </section>
      <section aria-labelledby="turn-off-heading" className="two-factor-action">
        <h2 id="turn-off-heading">Turn off two-factor sign-in</h2>
        {status.required ? (
          <p>Your firm requires two-factor sign-in for your account, so it cannot be turned off.</p>
        ) : (
          <>
            <p>Your password alone will then sign you in, and your other sessions are signed out.</p>
            <CodeForm
              submitLabel="Turn off two-factor sign-in"
              onUnauthorized={onUnauthorized}
              onSubmit={async (code) => {
                await disableTwoFactor(code)
                onDisabled()
              }}
            />
          </>
        )}
      </section>
    </>
  )
}

/** Two-factor sign-in is off: the current password starts the set-up, so an open session alone cannot. */
function StartSetupForm({ onStartSetup }: { onStartSetup: (password: string) => Promise<void> }) {
  const [password, setPassword] = useState('')
  const [isStarting, setIsStarting] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isStarting) return
    setIsStarting(true)
    await onStartSetup(password)
    setIsStarting(false)
  }
  return (
    <section>
      <p>
        <strong>Two-factor sign-in is off.</strong> Turn it on so that your password alone cannot open your
        account.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <NewPasswordField
          label="Current password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          showRule={false}
        />
        <button type="submit" className="submit" disabled={isStarting || password === ''}>
          {isStarting ? 'Checking...' : 'Turn on two-factor sign-in'}
        </button>
      </form>
    </section>
  )
}
