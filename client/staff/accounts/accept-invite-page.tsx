import { useEffect, useRef, useState, type FormEvent } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { Link, useNavigate } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { acceptInviteLink, checkInviteLink, type InviteLinkInfo } from './accounts-api.ts'
import { TextField } from '../../ui/text-field.tsx'
import { handOverSetupCode } from '../sign-in/handed-over-code.ts'
import { NewPasswordField } from './new-password-field.tsx'

type LinkState =
  | { status: 'checking' }
  | { status: 'open'; info: InviteLinkInfo }
  | { status: 'failed'; message: string }
  | { status: 'accepted' }

/**
 * /staff/invite#token=… (an admin's invitation) and /staff/setup#token=… (a fresh install's first
 * admin): the person chooses a password, and the set-up link also asks e-mail and name. The token is
 * read from the #fragment, which the browser never sends to a server.
 */
export function AcceptInvitePage({ kind }: { kind: InviteLinkInfo['kind'] }) {
  const title = kind === 'setup' ? 'Create the first admin account' : 'Set up your staff account'
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '')
  const [state, setState] = useState<LinkState>({ status: 'checking' })
  useEffect(() => {
    document.title = title
    let isCurrent = true
    checkInviteLink(token).then(
      (info) => isCurrent && setState({ status: 'open', info }),
      (error: Error) => isCurrent && setState({ status: 'failed', message: explain(error, kind) }),
    )
    return () => {
      isCurrent = false
    }
  }, [token, title, kind])

  return (
    <section className="card staff-gate">
      <header className="card-header">
        <h1>{title}</h1>
      </header>
      <div className="card-body">
        {state.status === 'checking' ? <Loading label="Checking your link..." /> : null}
        {state.status === 'failed' ? (
          <p className="alert" role="alert">
            {state.message}
          </p>
        ) : null}
        {state.status === 'open' ? (
          <PasswordForm token={token} info={state.info} onAccepted={() => setState({ status: 'accepted' })} />
        ) : null}
        {state.status === 'accepted' ? <Accepted /> : null}
      </div>
    </section>
  )
}

function Accepted() {
  const ref = useRef<HTMLParagraphElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <>
      <p ref={ref} tabIndex={-1} role="status">
        Your password is set. The link you used no longer works.
      </p>
      <p>
        <Link to="/staff">Sign in to the staff pages</Link>
      </p>
    </>
  )
}

function PasswordForm({
  token,
  info,
  onAccepted,
}: {
  token: string
  info: InviteLinkInfo
  onAccepted: () => void
}) {
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const [isSaving, setIsSaving] = useState(false)
  const navigate = useNavigate()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isSaving) return
    setIsSaving(true)
    setError(undefined)
    try {
      const accepted = await acceptInviteLink({
        token,
        password,
        ...(info.kind === 'setup' ? { email, name } : {}),
      })
      handOverSetupCode(accepted.twoFactorSetupCode)
      // the first admin is signed in by the set-up itself: on to their dashboards
      if (accepted.signedIn) navigate('/staff', { replace: true })
      else onAccepted()
    } catch (caught) {
      setError(explain(caught as Error, info.kind))
      setIsSaving(false)
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {info.kind === 'invite' ? (
        <p>
          Choose the password of <strong>{info.email}</strong> ({info.name}).
        </p>
      ) : (
        <>
          <p>This account will be the firm&apos;s first admin. It can then invite everyone else.</p>
          <TextField label="Email" type="email" autoComplete="username" value={email} onChange={setEmail} />
          <TextField label="Your name" autoComplete="name" value={name} onChange={setName} />
        </>
      )}
      <NewPasswordField label="New password" value={password} onChange={setPassword} />
      {error ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="submit" disabled={isSaving}>
        {isSaving ? 'Saving...' : 'Set password'}
      </button>
    </form>
  )
}

/** The server's message, with what to do; a spent or old link says whom to ask. */
function explain(error: Error, kind: InviteLinkInfo['kind']): string {
  const message = error.message.charAt(0).toUpperCase() + error.message.slice(1)
  if (error instanceof AppError && error.status < 500) return `${message}.`
  return `Your link could not be checked (${error.message}). Please try again in a moment${
    kind === 'invite' ? ', or ask an admin of your firm for a new invitation' : ''
  }.`
}
