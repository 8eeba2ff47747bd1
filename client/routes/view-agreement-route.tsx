import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link } from '../routing/router.tsx'
import { AppError } from '../../src/app-error.ts'
import { checkLookupInput, LINK_SENT_MESSAGE } from '../../src/lookup-messages.ts'
import {
  openAgreementLink,
  requestAgreementLink,
  resendAgreementLink,
  type OpenedAgreementLink,
} from '../agreements/api.ts'
import { endOpening, keepOpening, keptOpening } from '../agreements/kept-opening.ts'
import { OpenedAgreements } from '../agreements/opened-agreements.tsx'
import { SpentLinkOffer } from '../agreements/spent-link-offer.tsx'
import { PhoneInput } from '../forms/phone-input.tsx'
import { useText } from '../i18n/use-text.ts'
import { ProofOfWorkProblem, useProofOfWork } from '../proof-of-work/use-proof-of-work.tsx'

type PageState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent' }
  | { status: 'opening' }
  | { status: 'opened'; opened: OpenedAgreementLink }
  | { status: 'error'; message: string }
  /** A link already opened or past its time: the page keeps its token to ask for a new one. */
  | { status: 'spent'; message: string; token: string; isResending: boolean }
  | { status: 'resent' }

/** The token of an e-mailed link, from the address's fragment (which no server ever receives). */
function linkToken(): string | undefined {
  return /^#link=([A-Za-z0-9_-]+)$/.exec(window.location.hash)?.[1]
}

// a link opens once: React's development checks mount the page twice at once, and the second mount
// must share the first one's request; once answered, the same link asks the server again (and is refused)
const openings = new Map<string, Promise<OpenedAgreementLink>>()

function openOnce(token: string): Promise<OpenedAgreementLink> {
  let opening = openings.get(token)
  if (!opening) {
    opening = openAgreementLink(token)
    openings.set(token, opening)
    const forget = () => openings.delete(token)
    opening.then(forget, forget)
  }
  return opening
}

/**
 * /view-agreement: a claimant asks with e-mail and phone, and gets a one-time link by e-mail if they hold
 * an agreement; the same page, opened by that link, shows the agreements and their downloads.
 */
export function ViewAgreementRoute() {
  const t = useText()
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [problems, setProblems] = useState<Record<string, string>>({})
  // read once: the address loses the token as soon as the link is opened
  const [tokenAtStart] = useState(linkToken)
  const proofOfWork = useProofOfWork()
  const [state, setState] = useState<PageState>(() => {
    if (tokenAtStart) return { status: 'opening' }
    const kept = keptOpening()
    return kept ? { status: 'opened', opened: kept } : { status: 'idle' }
  })
  useEffect(() => {
    document.title = t('View My Agreement')
  }, [t])

  // the control pressed is gone with the state it belonged to: focus goes where the page now starts
  const headingRef = useRef<HTMLHeadingElement>(null)
  const resentRef = useRef<HTMLHeadingElement>(null)
  const focusNext = useRef<'heading' | 'resent' | undefined>(undefined)
  useEffect(() => {
    const target = focusNext.current === 'heading' ? headingRef : resentRef
    if (focusNext.current) target.current?.focus()
    focusNext.current = undefined
  }, [state])

  useEffect(() => {
    let isCurrent = true
    const open = (token: string | undefined) => {
      if (!token) return
      // out of the address bar and the history: the link is spent once opened
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
      // whatever this tab opened before gives way to this link, whether or not it opens
      const earlier = keptOpening()
      if (earlier) endOpening(earlier)
      // nor does what was typed into the lookup stay behind it
      setEmail('')
      setPhone('')
      setProblems({})
      setState({ status: 'opening' })
      openOnce(token).then(
        (opened) => {
          keepOpening(opened)
          if (isCurrent) setState({ status: 'opened', opened })
        },
        (error: unknown) => {
          if (!isCurrent) return
          const isSpent = error instanceof AppError && error.code === 'LINK_EXPIRED'
          setState(
            isSpent
              ? { status: 'spent', message: failureMessage(error), token, isResending: false }
              : { status: 'error', message: failureMessage(error) },
          )
        },
      )
    }
    open(tokenAtStart)
    // a link opened while this page is already showing changes only the fragment
    const onHashChange = () => open(linkToken())
    window.addEventListener('hashchange', onHashChange)
    return () => {
      isCurrent = false
      window.removeEventListener('hashchange', onHashChange)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once: later links arrive by hashchange
  }, [])

  function failureMessage(error: unknown): string {
    const appError = error instanceof AppError ? error : undefined
    // the server's own words for a spent link, a refused request or a limit, in the page's language
    if (appError && appError.status >= 400 && appError.status < 500) return appError.message
    return t('Error searching for agreement: {message}. Please try again.', {
      message: appError?.message ?? String(error),
    })
  }

  const ask = async (event: FormEvent) => {
    event.preventDefault()
    const found = checkLookupInput({ email, phone })
    setProblems(found)
    if (Object.keys(found).length > 0) return
    setState({ status: 'sending' })
    try {
      await proofOfWork.send((headers) => requestAgreementLink({ email, phone }, headers))
      setState({ status: 'sent' })
    } catch (error) {
      setState({ status: 'error', message: failureMessage(error) })
    }
  }

  const resend = async () => {
    if (state.status !== 'spent') return
    const { token } = state
    setState({ ...state, isResending: true })
    try {
      await proofOfWork.send((headers) => resendAgreementLink(token, headers))
      focusNext.current = 'resent'
      setState({ status: 'resent' })
    } catch (error) {
      setState({ status: 'error', message: failureMessage(error) })
    }
  }

  const lookUpAnother = () => {
    if (state.status !== 'opened') return
    endOpening(state.opened)
    setEmail('')
    setPhone('')
    setProblems({})
    focusNext.current = 'heading'
    setState({ status: 'idle' })
  }

  const isSending = state.status === 'sending'
  if (state.status === 'opening' || state.status === 'opened') {
    return (
      <section className="card">
        <header className="card-header">
          <h1>{t('View My Agreement')}</h1>
        </header>
        <div className="card-body">
          <div className="opened-actions">
            <Link to="/">{t('← Back to Home')}</Link>
            {state.status === 'opened' ? (
              <button type="button" className="secondary" onClick={lookUpAnother}>
                {t('Look up another agreement')}
              </button>
            ) : null}
          </div>
          {state.status === 'opening' ? (
            <p role="status">{t('Opening your link...')}</p>
          ) : (
            <OpenedAgreements key={state.opened.downloadKey} opened={state.opened} />
          )}
        </div>
      </section>
    )
  }
  return (
    <section className="card">
      <header className="card-header">
        <h1 ref={headingRef} tabIndex={-1}>
          {t('View My Agreement')}
        </h1>
        <p>
          {t(
            'Enter the email address and phone number you signed with, on the main form or in Step 2. We will email you a link to see and download your signed agreements.',
          )}
        </p>
      </header>
      <div className="card-body">
        <p>
          <Link to="/">{t('← Back to Home')}</Link>
        </p>
        {state.status === 'spent' ? (
          <SpentLinkOffer
            message={state.message}
            isSending={state.isResending}
            onResend={() => void resend()}
          />
        ) : null}
        {state.status === 'resent' ? (
          <div className="notice-box resent-notice" role="status">
            <h2 ref={resentRef} tabIndex={-1}>
              {t('Check Your Email')}
            </h2>
            <p>{t(LINK_SENT_MESSAGE)}</p>
          </div>
        ) : null}
        {state.status === 'error' ? (
          <div className="alert" role="alert">
            {state.message}
          </div>
        ) : null}
        {state.status === 'error' || state.status === 'spent' ? (
          <p>
            {t('Ask for a new link below, or write to us at')}{' '}
            <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>.
          </p>
        ) : null}
        <form className="lookup-form" onSubmit={(event) => void ask(event)} noValidate>
          <div className="form-group">
            <label htmlFor="lookup-email">{t('Email Address')}</label>
            <input
              id="lookup-email"
              className="form-control"
              type="email"
              autoComplete="email"
              placeholder={t('Email used for Step 2')}
              value={email}
              aria-invalid={problems.email ? true : undefined}
              onChange={(event) => {
                setEmail(event.target.value)
                setProblems(({ email: _cleared, ...rest }) => rest)
              }}
            />
            {problems.email ? <p className="field-error">{t(problems.email)}</p> : null}
          </div>
          <div className="form-group">
            <label htmlFor="lookup-phone">{t('Phone Number')}</label>
            <PhoneInput
              id="lookup-phone"
              className="form-control"
              autoComplete="tel"
              placeholder={t('Phone used for Step 2')}
              value={phone}
              aria-invalid={problems.phone ? true : undefined}
              onValueChange={(shown) => {
                setPhone(shown)
                setProblems(({ phone: _cleared, ...rest }) => rest)
              }}
            />
            {problems.phone ? <p className="field-error">{t(problems.phone)}</p> : null}
          </div>
          <button type="submit" className="submit" disabled={email === '' || isSending}>
            {isSending ? t('Searching...') : t('Find My Agreement')}
          </button>
        </form>
        <ProofOfWorkProblem proofOfWork={proofOfWork} />
        {state.status === 'sent' ? (
          <div className="notice-box" role="status">
            <h2>{t('Check Your Email')}</h2>
            <p>{t(LINK_SENT_MESSAGE)}</p>
          </div>
        ) : null}
      </div>
    </section>
  )
}
