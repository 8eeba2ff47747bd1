import { useState, type FormEvent } from 'react'
import { useLocale } from '../i18n/use-text.ts'
import { signPayoutConsent, type ClaimantPayout } from './api.ts'
import { FormFailure, usePayoutForm } from './payout-fields.tsx'
import { PayoutSignature, UNSIGNED } from './payout-signature.tsx'

/**
 * The settlement's Rule 1.8(g) disclosure as the server wrote it (the same text it stores when signed),
 * and a signature under it, drawn or typed; once signed, when.
 */
export function ConsentForm({
  payout,
  consent,
  downloadKey,
  onSaved,
}: {
  payout: ClaimantPayout
  consent: NonNullable<ClaimantPayout['consent']>
  downloadKey: string
  onSaved: (payout: ClaimantPayout) => void
}) {
  const { locale, t } = useLocale()
  const id = `consent-${payout.claimId}`
  const [signing, setSigning] = useState(UNSIGNED)
  const form = usePayoutForm(id)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void form.send(async () => {
      const { payout: saved } = await signPayoutConsent({
        key: downloadKey,
        claimId: payout.claimId,
        ...signing,
      })
      onSaved(saved)
    })
  }
  return (
    <div className="payout-consent">
      {/* made and escaped on the server: the exact text that is stored and hashed when signed */}
      <div className="consent-disclosure" dangerouslySetInnerHTML={{ __html: consent.disclosureHtml }} />
      {consent.signedAt ? (
        <p className="payout-done">
          {t('You signed this consent on {date}.', {
            date: new Date(consent.signedAt).toLocaleDateString(locale === 'es' ? 'es-US' : 'en-US', {
              dateStyle: 'long',
            }),
          })}
        </p>
      ) : (
        <form className="payout-form" onSubmit={submit} noValidate aria-label={t('Sign the consent')}>
          <PayoutSignature
            formId={id}
            errors={form.errors.signature}
            onChange={(next) => {
              setSigning(next)
              form.clear('signature')
            }}
          />
          <FormFailure message={form.failure} />
          <button type="submit" className="submit" disabled={form.isSending}>
            {form.isSending ? t('Saving...') : t('Sign the consent')}
          </button>
        </form>
      )}
    </div>
  )
}
