import { useState, type FormEvent } from 'react'
import { useText } from '../i18n/use-text.ts'
import { saveW9, type ClaimantPayout } from './api.ts'
import { FieldErrors, FormFailure, PayoutField, RadioGroup, usePayoutForm } from './payout-fields.tsx'
import { PayoutSignature, UNSIGNED } from './payout-signature.tsx'

/** The W-9's certification in plain words (the IRS form's Part II), each line a promise the claimant makes. */
const CERTIFICATION = [
  'The Social Security number or Employer Identification Number on this form is my correct number.',
  'The IRS has not told me that I must have backup withholding because I did not report all my interest or dividends, or it has told me that this has ended.',
  'I am a U.S. citizen or another U.S. person (such as a resident alien).',
  'I do not claim an exemption from FATCA reporting.',
]

/**
 * The claimant's W-9: the name on their tax return, their SSN or EIN, the address, the certification
 * (never ticked for them) and a signature, drawn or typed. The number is sent once and never shown back
 * whole; once saved, the form starts again blank for a new W-9.
 */
export function W9Form({
  payout,
  downloadKey,
  onSaved,
}: {
  payout: ClaimantPayout
  downloadKey: string
  onSaved: (payout: ClaimantPayout) => void
}) {
  const t = useText()
  const id = `w9-${payout.claimId}`
  const [legalName, setLegalName] = useState(payout.w9?.legalName ?? '')
  const [tinType, setTinType] = useState<'ssn' | 'ein'>(payout.w9?.tinType ?? 'ssn')
  const [tin, setTin] = useState('')
  const [addressLine1, setAddressLine1] = useState('')
  const [addressLine2, setAddressLine2] = useState('')
  const [city, setCity] = useState('')
  const [state, setState] = useState('')
  const [zip, setZip] = useState('')
  const [isCertified, setIsCertified] = useState(false)
  const [signing, setSigning] = useState(UNSIGNED)
  // a new W-9 is signed anew: the pad is drawn afresh once one is saved
  const [saves, setSaves] = useState(0)
  const form = usePayoutForm(id)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void form.send(async () => {
      const { payout: saved } = await saveW9({
        key: downloadKey,
        claimId: payout.claimId,
        legalName,
        tinType,
        tin,
        addressLine1,
        addressLine2,
        city,
        state,
        zip,
        isCertified,
        ...signing,
      })
      setTin('')
      setIsCertified(false)
      setSigning(UNSIGNED)
      setSaves((n) => n + 1)
      onSaved(saved)
    })
  }
  const field = (name: string, setter: (value: string) => void) => ({
    id: `${id}-${name}`,
    errors: form.errors[name],
    onChange: (value: string) => {
      setter(value)
      form.clear(name)
    },
  })

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`}>{payout.w9 ? t('Send a new W-9') : t('Your W-9 (for taxes)')}</h4>
      <p className="field-help">
        {t(
          'The law asks us for your taxpayer number before we pay you. Without it, 24% of your payment must be held back for the IRS.',
        )}
      </p>
      <PayoutField
        {...field('legalName', setLegalName)}
        label={t('Your name as shown on your income tax return')}
        value={legalName}
        autoComplete="name"
        maxLength={100}
      />
      <RadioGroup
        id={`${id}-tinType`}
        legend={t('Your taxpayer number is a')}
        name={`${id}-tinType`}
        value={tinType}
        errors={form.errors.tinType}
        onChange={(next) => {
          setTinType(next)
          form.clear('tinType')
        }}
        options={[
          { value: 'ssn', label: t('Social Security number (SSN)') },
          { value: 'ein', label: t('Employer Identification Number (EIN)') },
        ]}
      />
      <PayoutField
        {...field('tin', setTin)}
        label={tinType === 'ssn' ? t('Social Security number') : t('Employer Identification Number')}
        hint={tinType === 'ssn' ? t('9 digits, like 123-45-6789') : t('9 digits, like 12-3456789')}
        value={tin}
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
      />
      <PayoutField
        {...field('addressLine1', setAddressLine1)}
        label={t('Street address')}
        value={addressLine1}
        autoComplete="address-line1"
        maxLength={100}
      />
      <PayoutField
        {...field('addressLine2', setAddressLine2)}
        label={t('Apartment, suite, unit (optional)')}
        value={addressLine2}
        autoComplete="address-line2"
        maxLength={100}
      />
      <PayoutField
        {...field('city', setCity)}
        label={t('City')}
        value={city}
        autoComplete="address-level2"
        maxLength={100}
      />
      <div className="payout-row">
        <PayoutField
          {...field('state', setState)}
          label={t('State (2 letters)')}
          value={state}
          autoComplete="address-level1"
          maxLength={2}
        />
        <PayoutField
          {...field('zip', setZip)}
          label={t('ZIP code')}
          value={zip}
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
        />
      </div>
      <section className="w9-certification" aria-labelledby={`${id}-certification-heading`}>
        <h5 id={`${id}-certification-heading`}>{t('Certification')}</h5>
        <p>{t('Under penalty of perjury, I promise that:')}</p>
        <ol>
          {CERTIFICATION.map((line) => (
            <li key={line}>{t(line)}</li>
          ))}
        </ol>
        <p className="field-help">
          {t(
            'If the IRS told you that you must have backup withholding and has not told you that it ended, do not tick the box: write to us instead.',
          )}
        </p>
        <div className="cure-statement">
          <input
            id={`${id}-isCertified`}
            type="checkbox"
            checked={isCertified}
            aria-invalid={form.errors.isCertified ? true : undefined}
            aria-describedby={form.errors.isCertified ? `${id}-isCertified-error` : undefined}
            onChange={(event) => {
              setIsCertified(event.target.checked)
              form.clear('isCertified')
            }}
          />
          <label htmlFor={`${id}-isCertified`}>{t('I certify all of the above is true.')}</label>
        </div>
        <FieldErrors id={`${id}-isCertified-error`} errors={form.errors.isCertified} />
      </section>
      <PayoutSignature
        key={saves}
        formId={id}
        errors={form.errors.signature}
        onChange={(next) => {
          setSigning(next)
          form.clear('signature')
        }}
      />
      <FormFailure message={form.failure} />
      <button type="submit" className="submit" disabled={form.isSending}>
        {form.isSending ? t('Saving...') : t('Sign and send my W-9')}
      </button>
    </form>
  )
}
