import { useEffect, useRef, useState, type FormEvent } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { Link } from '../../routing/router.tsx'
import { StaffArea } from '../sign-in/staff-area.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { changeOwnPassword } from './accounts-api.ts'
import { NewPasswordField } from './new-password-field.tsx'
import './accounts.css'
import { StaffHeader } from '../sign-in/staff-header.tsx'

const TITLE = 'My account'

/** /staff/account: the signed-in person's own password, and the way to two-factor sign-in. */
export function OwnAccountPage() {
  return <StaffArea gateTitle={TITLE}>{(session) => <OwnAccount session={session} />}</StaffArea>
}

function OwnAccount({ session }: { session: StaffSession }) {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [error, setError] = useState<string>()
  const [isSaving, setIsSaving] = useState(false)
  const [isChanged, setIsChanged] = useState(false)
  const doneRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    document.title = TITLE
  }, [])
  useEffect(() => {
    if (isChanged) doneRef.current?.focus()
  }, [isChanged])
  const account = session.account

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isSaving) return
    setIsSaving(true)
    setError(undefined)
    setIsChanged(false)
    try {
      await changeOwnPassword({ currentPassword: current, newPassword: next })
      setCurrent('')
      setNext('')
      setIsChanged(true)
    } catch (caught) {
      if (caught instanceof AppError && caught.status === 401) return session.expired()
      const message = (caught as Error).message
      setError(`${message.charAt(0).toUpperCase()}${message.slice(1)}.`)
    } finally {
      setIsSaving(false)
    }
  }

  return (
    <article className="card staff-home">
      <StaffHeader title={TITLE} session={session} />
      <div className="card-body">
        {account ? (
          <dl className="details">
            <dt>Name</dt>
            <dd>{account.name}</dd>
            <dt>Email</dt>
            <dd>{account.email}</dd>
            <dt>Role</dt>
            <dd>{account.role === 'admin' ? 'Admin' : 'Staff'}</dd>
            <dt>Two-factor sign-in</dt>
            <dd>
              {account.twoFactor ? 'On' : 'Off'} (<Link to="/staff/two-factor">Two-factor sign-in</Link>)
            </dd>
          </dl>
        ) : null}
        <form className="account-form" onSubmit={(event) => void submit(event)} noValidate>
          <h2>Change your password</h2>
          <p className="field-help">
            Every other browser signed in to your account is signed out; this one stays.
          </p>
          <NewPasswordField
            label="Current password"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
            showRule={false}
          />
          <NewPasswordField label="New password" value={next} onChange={setNext} />
          {error ? (
            <p className="alert" role="alert">
              {error}
            </p>
          ) : null}
          {isChanged ? (
            <p ref={doneRef} tabIndex={-1} role="status" className="done-note">
              Your password is changed. Other browsers signed in to your account were signed out.
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={isSaving}>
            {isSaving ? 'Saving...' : 'Change password'}
          </button>
        </form>
      </div>
    </article>
  )
}
