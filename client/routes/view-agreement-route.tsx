import { useEffect, useState, type FormEvent } from 'react'
import { Link } from '../routing/router.tsx'
import { AppError } from '../../src/app-error.ts'
import { AGREEMENT_NOT_FOUND_MESSAGE, checkLookupInput } from '../../src/lookup-messages.ts'
import { lookupAgreements, type FoundAgreement } from '../agreements/api.ts'
import { FoundAgreementCard } from '../agreements/found-agreement-card.tsx'
import { PhoneInput } from '../forms/phone-input.tsx'
import { useText } from '../i18n/use-text.ts'
import { ProofOfWorkProblem, useProofOfWork } from '../proof-of-work/use-proof-of-work.tsx'

type LookupState =
  | { status: 'idle' }
  | { status: 'searching' }
  | { status: 'found'; agreements: FoundAgreement[] }
  | { status: 'not-found' }
  | { status: 'error'; message: string }

/** /view-agreement: a claimant finds and downloads what they signed, with e-mail and phone together. */
export function ViewAgreementRoute() {
  const t = useText()
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [problems, setProblems] = useState<Record<string, string>>({})
  const [state, setState] = useState<LookupState>({ status: 'idle' })
  const [searched, setSearched] = useState({ email: '', phone: '' })
  const proofOfWork = useProofOfWork()
  useEffect(() => {
    document.title = t('View My Agreement')
  }, [t])

  const search = async (event: FormEvent) => {
    event.preventDefault()
    const found = checkLookupInput({ email, phone })
    setProblems(found)
    if (Object.keys(found).length > 0) return
    setState({ status: 'searching' })
    try {
      const agreements = await proofOfWork.send((headers) => lookupAgreements({ email, phone }, headers))
      setSearched({ email, phone })
      setState({ status: 'found', agreements })
    } catch (error) {
      const appError = error instanceof AppError ? error : undefined
      if (appError?.status === 404) setState({ status: 'not-found' })
      else if (appError?.status === 429 || appError?.code.startsWith('PROOF_OF_WORK_'))
        setState({ status: 'error', message: appError.message })
      else {
        const message = appError?.message ?? String(error)
        setState({
          status: 'error',
          message: t('Error searching for agreement: {message}. Please try again.', { message }),
        })
      }
    }
  }

  const isSearching = state.status === 'searching'
  return (
    <section className="card">
      <header className="card-header">
        <h1>{t('View My Agreement')}</h1>
        <p>
          {t(
            'Enter the email address and phone number you signed with, on the main form or in Step 2, to see and download your signed agreements.',
          )}
        </p>
      </header>
      <div className="card-body">
        <p>
          <Link to="/">{t('← Back to Home')}</Link>
        </p>
        <form className="lookup-form" onSubmit={(event) => void search(event)} noValidate>
          <div className="form-group">
            <label htmlFor="lookup-email">{t('Email Address')}</label>
            <input
              id="lookup-email"
              className="form-control"
              type="email"
              autoComplete="email"
              placeholder={t('Enter the email you used for Step 2')}
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
              placeholder={t('Enter the phone number you used for Step 2')}
              value={phone}
              aria-invalid={problems.phone ? true : undefined}
              onValueChange={(shown) => {
                setPhone(shown)
                setProblems(({ phone: _cleared, ...rest }) => rest)
              }}
            />
            {problems.phone ? <p className="field-error">{t(problems.phone)}</p> : null}
          </div>
          <button type="submit" className="submit" disabled={email === '' || isSearching}>
            {isSearching ? t('Searching...') : t('Find My Agreement')}
          </button>
        </form>
        <ProofOfWorkProblem proofOfWork={proofOfWork} />
        {state.status === 'not-found' ? (
          <div className="notice-box" role="alert">
            <h2>{t('No Agreement Found')}</h2>
            <p>{t(AGREEMENT_NOT_FOUND_MESSAGE)}</p>
          </div>
        ) : null}
        {state.status === 'error' ? (
          <div className="alert" role="alert">
            {state.message}
          </div>
        ) : null}
        {state.status === 'found' ? (
          <div className="found">
            <h2 className="found-heading">{t('Agreement Found!')}</h2>
            {state.agreements.map((agreement) => (
              <FoundAgreementCard
                key={
                  agreement.kind === 'claim' ? `claim-${agreement.claimId}` : `intake-${agreement.intakeId}`
                }
                agreement={agreement}
                contact={searched}
              />
            ))}
          </div>
        ) : null}
      </div>
    </section>
  )
}
