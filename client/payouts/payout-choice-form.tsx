import { useState, type FormEvent } from 'react'
import type { PayoutMethod } from '../../src/payout-details.ts'
import { useText } from '../i18n/use-text.ts'
import { savePayoutChoice, type ClaimantPayout, type ShownPayoutChoice } from './api.ts'
import { FormFailure, PayoutField, RadioGroup, usePayoutForm } from './payout-fields.tsx'

/** The choice as one line: "Venmo (••••0199)", "Bank transfer (ACH) to savings ••••6789". */
export function useChoiceLine(): (choice: ShownPayoutChoice) => string {
  const t = useText()
  return (choice) => {
    if (choice.method === 'paypal') return t('PayPal ({contact})', { contact: choice.receiver })
    if (choice.method === 'venmo') return t('Venmo ({contact})', { contact: choice.receiver })
    if (choice.method === 'ach') {
      return choice.accountType === 'savings'
        ? t('Bank transfer (ACH) to savings account {account}', { account: choice.account })
        : t('Bank transfer (ACH) to checking account {account}', { account: choice.account })
    }
    return t('Paper check by mail')
  }
}

/**
 * How the claimant wants the award paid: PayPal or Venmo (by e-mail or phone), a bank transfer (routing
 * and account number, checking or savings), or a paper check to their confirmed address. The numbers
 * are sent once and never shown back whole; the fields start empty on every change.
 */
export function PayoutChoiceForm({
  payout,
  downloadKey,
  onSaved,
}: {
  payout: ClaimantPayout
  downloadKey: string
  onSaved: (payout: ClaimantPayout) => void
}) {
  const t = useText()
  const id = `payout-${payout.claimId}`
  const [method, setMethod] = useState<PayoutMethod | undefined>(payout.choice?.method)
  const [walletBy, setWalletBy] = useState<'email' | 'phone'>('email')
  const [contact, setContact] = useState('')
  const [routingNumber, setRoutingNumber] = useState('')
  const [accountNumber, setAccountNumber] = useState('')
  const [accountType, setAccountType] = useState<'checking' | 'savings'>()
  const form = usePayoutForm(id)
  const isWallet = method === 'paypal' || method === 'venmo'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void form.send(async () => {
      const { payout: saved } = await savePayoutChoice({
        key: downloadKey,
        claimId: payout.claimId,
        method: method ?? ('' as PayoutMethod),
        ...(isWallet ? { [walletBy]: contact } : {}),
        ...(method === 'ach'
          ? { routingNumber, accountNumber, ...(accountType ? { accountType } : {}) }
          : {}),
      })
      setContact('')
      setRoutingNumber('')
      setAccountNumber('')
      onSaved(saved)
    })
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate aria-labelledby={`${id}-choice-heading`}>
      <h4 id={`${id}-choice-heading`}>{t('How you want to be paid')}</h4>
      <RadioGroup
        id={`${id}-method`}
        legend={t('Choose one')}
        name={`${id}-method`}
        value={method}
        errors={form.errors.method}
        onChange={(next) => {
          setMethod(next)
          form.clear('method')
        }}
        options={[
          { value: 'paypal', label: 'PayPal' },
          { value: 'venmo', label: 'Venmo' },
          { value: 'ach', label: t('Bank transfer (ACH)') },
          {
            value: 'check',
            label: t('Paper check by mail'),
            detail: payout.checkAddress
              ? t('Mailed to {address}', { address: payout.checkAddress })
              : t('Only once you have confirmed your mailing address from our e-mail.'),
          },
        ]}
      />
      {isWallet ? (
        <>
          <RadioGroup
            id={`${id}-wallet-by`}
            legend={t('Find my {wallet} account by', { wallet: method === 'paypal' ? 'PayPal' : 'Venmo' })}
            name={`${id}-wallet-by`}
            value={walletBy}
            errors={undefined}
            onChange={(next) => {
              setWalletBy(next)
              setContact('')
              form.clear('email')
              form.clear('phone')
            }}
            options={[
              { value: 'email', label: t('E-mail address') },
              { value: 'phone', label: t('Phone number') },
            ]}
          />
          <PayoutField
            id={`${id}-${walletBy}`}
            label={
              walletBy === 'email'
                ? t('The e-mail address of your account')
                : t('The phone number of your account')
            }
            value={contact}
            onChange={(value) => {
              setContact(value)
              form.clear(walletBy)
            }}
            errors={form.errors[walletBy] ?? form.errors[walletBy === 'email' ? 'phone' : 'email']}
            inputMode={walletBy === 'email' ? 'email' : 'tel'}
            autoComplete={walletBy === 'email' ? 'email' : 'tel'}
            maxLength={254}
          />
        </>
      ) : null}
      {method === 'ach' ? (
        <>
          <PayoutField
            id={`${id}-routingNumber`}
            label={t('Routing number')}
            hint={t('The 9 digits at the bottom left of a check, or in your bank app.')}
            value={routingNumber}
            onChange={(value) => {
              setRoutingNumber(value)
              form.clear('routingNumber')
            }}
            errors={form.errors.routingNumber}
            inputMode="numeric"
            autoComplete="off"
            maxLength={11}
          />
          <PayoutField
            id={`${id}-accountNumber`}
            label={t('Account number')}
            value={accountNumber}
            onChange={(value) => {
              setAccountNumber(value)
              form.clear('accountNumber')
            }}
            errors={form.errors.accountNumber}
            inputMode="numeric"
            autoComplete="off"
            maxLength={20}
          />
          <RadioGroup
            id={`${id}-accountType`}
            legend={t('Type of account')}
            name={`${id}-accountType`}
            value={accountType}
            errors={form.errors.accountType}
            onChange={(next) => {
              setAccountType(next)
              form.clear('accountType')
            }}
            options={[
              { value: 'checking', label: t('Checking') },
              { value: 'savings', label: t('Savings') },
            ]}
          />
        </>
      ) : null}
      <FormFailure message={form.failure} />
      <button type="submit" className="submit" disabled={form.isSending}>
        {form.isSending ? t('Saving...') : t('Save how I am paid')}
      </button>
    </form>
  )
}
