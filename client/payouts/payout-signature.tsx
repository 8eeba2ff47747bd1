import type { PayoutSigning } from '../../src/api/claimant-payouts.ts'
import { useText } from '../i18n/use-text.ts'
import { SignatureField, type FieldSignature } from '../signature/signature-field.tsx'
import { FieldErrors } from './payout-fields.tsx'

/** The id of a payout form's signature control, where a message about the signature moves the focus. */
export const signatureId = (formId: string) => `${formId}-signature`

/** How a consent or a W-9 is signed before the claimant touches the pad: drawn, with nothing drawn yet. */
export const UNSIGNED: PayoutSigning = { signatureMethod: 'drawn', signature: '' }

/**
 * A consent's or a W-9's signature, drawn or typed as the agreement's is (SignatureField), with the
 * server's message under it. What it gives is what the request sends: the drawing's PNG, or the name
 * as typed (the server keeps the name, so the name goes as soon as it is typed, not once its image is
 * drawn). An empty pad or name is sent as it is, and the server's message says to sign.
 */
export function PayoutSignature({
  formId,
  errors,
  onChange,
}: {
  formId: string
  errors: string[] | undefined
  onChange: (signing: PayoutSigning) => void
}) {
  const t = useText()
  const id = signatureId(formId)
  const errorId = `${id}-error`
  return (
    <div className="form-group signature" data-field="signature">
      <label className="control-label" htmlFor={id}>
        {t('Signature')}
      </label>
      <SignatureField
        id={id}
        errorId={errors ? errorId : undefined}
        onChange={(signature) => onChange(payoutSigning(signature))}
      />
      <FieldErrors id={errorId} errors={errors} />
    </div>
  )
}

function payoutSigning(signature: FieldSignature): PayoutSigning {
  if (signature.method === 'typed') return { signatureMethod: 'typed', typedSignature: signature.typedName }
  // a payout form offers no main-form signature to adopt
  return { signatureMethod: 'drawn', signature: signature.method === 'drawn' ? (signature.image ?? '') : '' }
}
