import { Link } from '../routing/router.tsx'
import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import {
  CURE_AGE_REQUIRED_MESSAGE,
  CURE_CONTACT_TEXT,
  CURE_DONE_MESSAGE,
  CURE_LINK_INVALID_MESSAGE,
  CURE_NAME_REQUIRED_MESSAGE,
  CURE_PAGE_TITLE,
  CURE_SCREENSHOT_REQUIRED_MESSAGE,
  CURE_TOKEN_PATTERN,
  type CureData,
  type CureSent,
  type CureView,
  type OpenCureRequest,
} from '../../src/api/cure.ts'
import { AppError } from '../../src/app-error.ts'
import { MAX_UPLOAD_BYTES } from '../../src/claim-messages.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { fetchJson } from '../http.ts'
import { useLocale } from '../i18n/use-text.ts'
import { RefusedScreenshot } from '../cure/refused-screenshot.tsx'
import { ScreenshotWidget, type ScreenshotContext } from '../forms/widgets/screenshot-widget.tsx'
import { SignatureField, type FieldSignature } from '../signature/signature-field.tsx'

type PageState =
  | { status: 'loading' }
  | { status: 'open'; view: CureView }
  | { status: 'done' }
  | { status: 'closed'; message: string }

/**
 * /cure#token=…: the page a deficiency notice's link opens. It shows what the reviewer found wrong and
 * asks only for what fixes it (a new screenshot, the name, a new signature, the age statement). The
 * token stays in the fragment and goes to the server in a POST body, never in an address.
 */
export function CureRoute() {
  const { t } = useLocale()
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '')
  const [state, setState] = useState<PageState>(() =>
    CURE_TOKEN_PATTERN.test(token)
      ? { status: 'loading' }
      : { status: 'closed', message: t(CURE_LINK_INVALID_MESSAGE) },
  )
  useEffect(() => {
    document.title = t(CURE_PAGE_TITLE)
  }, [t])
  useEffect(() => {
    if (state.status !== 'loading') return
    fetchJson<CureView>('/api/cures/open', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token } satisfies OpenCureRequest),
    }).then(
      (view) => setState({ status: 'open', view }),
      (error: unknown) =>
        setState({
          status: 'closed',
          message:
            error instanceof AppError && error.status < 500
              ? error.message
              : t('The page could not be loaded. Please try again in a few minutes.'),
        }),
    )
  }, [state.status, token, t])

  const contact = (
    <p className="cure-contact">
      {t(CURE_CONTACT_TEXT, { email: '{email}' }).split('{email}')[0]}
      <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>
      {t(CURE_CONTACT_TEXT, { email: '{email}' }).split('{email}')[1]}
    </p>
  )
  return (
    <section className="card cure-page">
      <header className="card-header">
        <h1>{t(CURE_PAGE_TITLE)}</h1>
      </header>
      <div className="card-body">
        {state.status === 'loading' ? <p aria-live="polite">{t('Loading...')}</p> : null}
        {state.status === 'closed' ? (
          <>
            <ClosedNotice message={state.message} />
            <p>
              {t('Need a new link?')} <Link to="/view-agreement">{t('Ask for one by e-mail')}</Link>
              {t(': it shows where each of your claims stands.')}
            </p>
          </>
        ) : null}
        {state.status === 'done' ? (
          <p className="cure-done" role="status">
            {t(CURE_DONE_MESSAGE)}
          </p>
        ) : null}
        {state.status === 'open' ? (
          <CureForm token={token} view={state.view} onDone={() => setState({ status: 'done' })} />
        ) : null}
        {contact}
      </div>
    </section>
  )
}

function ClosedNotice({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <p className="alert" role="alert" tabIndex={-1} ref={ref}>
      {message}
    </p>
  )
}

function CureForm({ token, view, onDone }: { token: string; view: CureView; onDone: () => void }) {
  const { t, locale } = useLocale()
  const asks = (fix: CureView['fix'][number]) => view.fix.includes(fix)
  const [firstName, setFirstName] = useState(view.firstName)
  const [lastName, setLastName] = useState(view.lastName)
  const [over18, setOver18] = useState(false)
  const [file, setFile] = useState<File | undefined>()
  // the cure page offers no main-form signature to adopt: drawn or typed
  const [signed, setSigned] = useState<{ method: 'drawn' | 'typed'; image: string | undefined }>({
    method: 'drawn',
    image: undefined,
  })
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const problemRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (problem) problemRef.current?.focus()
  }, [problem])
  // the period ends as that day ends where the claimant lives, whatever zone this browser is set to
  const until = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: view.timeZone }).format(
    new Date(view.expiresAt),
  )

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const missing =
      asks('screenshot') && !file
        ? t(CURE_SCREENSHOT_REQUIRED_MESSAGE)
        : asks('screenshot') && file && file.size > MAX_UPLOAD_BYTES
          ? t('The file is larger than 10 MB. Please choose a smaller screenshot.')
          : asks('name') && (firstName.trim() === '' || lastName.trim() === '')
            ? t(CURE_NAME_REQUIRED_MESSAGE)
            : asks('age') && !over18
              ? t(CURE_AGE_REQUIRED_MESSAGE)
              : asks('signature') && !signed.image
                ? t('Please sign in the box.')
                : undefined
    if (missing) {
      setProblem(missing)
      return
    }
    const data: CureData = {
      token,
      ...(asks('name') ? { firstName, lastName } : {}),
      ...(asks('age') ? { over18 } : {}),
      ...(asks('signature') ? { signature: signed.image, signatureMethod: signed.method } : {}),
    }
    const body = new FormData()
    body.append('data', JSON.stringify(data))
    if (asks('screenshot') && file) body.append('screenshot', file)
    setSending(true)
    setProblem(undefined)
    try {
      await fetchJson<CureSent>('/api/cures', { method: 'POST', body })
      onDone()
    } catch (error) {
      setProblem(
        error instanceof AppError && error.status < 500
          ? error.message
          : t('Your corrections could not be sent. Please try again in a few minutes.'),
      )
    } finally {
      setSending(false)
    }
  }

  return (
    <form className="cure-form" onSubmit={(event) => void submit(event)} noValidate>
      <p>
        {t('We reviewed your {app} claim. Before we can go on, it needs a correction:', {
          app: view.appName,
        })}
      </p>
      <ul className="cure-problems">
        {view.problems.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <RefusedScreenshot token={token} />
      <p className="cure-until">{t('Please send it by {date}.', { date: until })}</p>
      {asks('name') ? (
        <fieldset className="form-group">
          <legend>{t('Your name')}</legend>
          <label htmlFor="cure-first-name">{t('First name')}</label>
          <input
            id="cure-first-name"
            className="form-control"
            autoComplete="given-name"
            maxLength={100}
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
          />
          <label htmlFor="cure-last-name">{t('Last name')}</label>
          <input
            id="cure-last-name"
            className="form-control"
            autoComplete="family-name"
            maxLength={100}
            value={lastName}
            onChange={(event) => setLastName(event.target.value)}
          />
        </fieldset>
      ) : null}
      {asks('screenshot') ? (
        <div className="form-group">
          <label htmlFor="cure-screenshot">{t('New bank statement screenshot (PNG or JPEG)')}</label>
          {/* the claim form's picker: a button of our own over the browser's input, the file checked
              and previewed as soon as it is picked */}
          <ScreenshotWidget
            {...({
              id: 'cure-screenshot',
              value: file?.name,
              onChange: () => undefined,
              onBlur: () => undefined,
              disabled: sending,
              readonly: false,
              registry: {
                formContext: {
                  screenshotPrompt: t(
                    'Take a new, clear screenshot of your bank statement showing a {app} fee or cash advance.',
                    { app: view.appName },
                  ),
                  setScreenshot: (picked: File | undefined) => {
                    setFile(picked)
                    // the page's "please upload" no longer holds once a file is picked
                    if (picked) setProblem(undefined)
                  },
                } satisfies ScreenshotContext,
              },
            } as unknown as WidgetProps)}
          />
        </div>
      ) : null}
      {asks('signature') ? (
        <div className="form-group">
          <p id="cure-signature-label" className="field-label">
            {t('Sign again: your signature confirms the agreement you already signed.')}
          </p>
          <SignatureField
            id="cure-signature"
            isDisabled={sending}
            onChange={(signature) => setSigned((last) => cureSignature(signature, last))}
          />
        </div>
      ) : null}
      {asks('age') ? (
        <div className="form-group cure-statement">
          <input
            id="cure-over-18"
            type="checkbox"
            checked={over18}
            onChange={(event) => setOver18(event.target.checked)}
          />
          <label htmlFor="cure-over-18">{t('I am 18 years of age or older.')}</label>
        </div>
      ) : null}
      <p className="alert" role="alert" tabIndex={-1} ref={problemRef} hidden={!problem}>
        {problem}
      </p>
      <button type="submit" className="primary" disabled={sending}>
        {sending ? t('Sending...') : t('Send my corrections')}
      </button>
    </form>
  )
}

/**
 * What the cure sends for a signature: the drawing, or the typed name's image; the last image stays
 * until the image of the name now typed is drawn, so what is sent as typed is what the page shows.
 */
function cureSignature(
  signature: FieldSignature,
  last: { method: 'drawn' | 'typed'; image: string | undefined },
): { method: 'drawn' | 'typed'; image: string | undefined } {
  if (signature.method === 'adopted') return last
  if (signature.method === 'typed' && signature.typedName !== '' && signature.image === undefined) {
    return last
  }
  return { method: signature.method, image: signature.image }
}
