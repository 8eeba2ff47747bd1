import { useId, useState, type FormEvent } from 'react'
import type { StaffAppChoice } from '../../../src/api/staff-accounts.ts'
import { AccessFields, type Access } from './access-fields.tsx'
import { TextField } from '../../ui/text-field.tsx'
import { inviteAccount, type StaffAccountSummary } from './accounts-api.ts'

/** E-mail, name, role and apps; the server creates the account and e-mails its one-time link. */
export function InviteForm({
  apps,
  onInvited,
  onError,
}: {
  apps: StaffAppChoice[]
  onInvited: (account: StaffAccountSummary, emailed: boolean) => void
  onError: (error: unknown) => void
}) {
  const errorId = useId()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [access, setAccess] = useState<Access>({ role: 'staff', apps: [] })
  const [error, setError] = useState<string>()
  const [isSending, setIsSending] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isSending) return
    setIsSending(true)
    setError(undefined)
    try {
      const answer = await inviteAccount({ email, name, ...access })
      setEmail('')
      setName('')
      setAccess({ role: 'staff', apps: [] })
      onInvited(answer.account, answer.emailed)
    } catch (caught) {
      onError(caught)
      const message = (caught as Error).message
      setError(`The invitation was not sent: ${message}.`)
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={error ? errorId : undefined}>
      <TextField label="Email" type="email" autoComplete="off" value={email} onChange={setEmail} />
      <TextField label="Name" autoComplete="off" value={name} onChange={setName} />
      <AccessFields value={access} onChange={setAccess} apps={apps} />
      {error ? (
        <p id={errorId} className="alert" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Sending...' : 'Send invitation'}
      </button>
    </form>
  )
}
