import type { WidgetProps } from '@rjsf/utils'
import { LazySignatureField } from '../../signature/lazy-signature-field.tsx'
import type { FieldSignature } from '../../signature/signature-field.tsx'
import { AgreementSlot } from '../agreement-slot.tsx'
import { ADOPTED_SIGNATURE_PLACEHOLDER, type SigningReport } from './signing.ts'

/**
 * A form's signature field: SignatureField (fetched as it comes near), whose PNG is the field's value; the form hears how the
 * claimant signed through formContext.signing. A page opened by a Step 2 link also offers the main
 * form's signature. On a form with an agreement it stands first (AgreementSlot), then the field's
 * label: the config hides the label RJSF would put above both ("ui:label": false) and it is shown here.
 */
export function SignatureWidget({
  id,
  label,
  hideLabel,
  required,
  disabled,
  readonly,
  onChange,
  registry,
}: WidgetProps) {
  const signing = (registry.formContext as { signing?: SigningReport } | undefined)?.signing
  const signed = (signature: FieldSignature) => {
    if (signature.method === 'adopted') {
      signing?.report({ method: 'adopted' })
      onChange(ADOPTED_SIGNATURE_PLACEHOLDER)
      return
    }
    if (signature.method === 'drawn') {
      signing?.report({ method: 'drawn' })
      onChange(signature.image)
      return
    }
    // the form keeps the last image until this name's is drawn: what is sent as typed is what it shows
    if (signature.typedName !== '' && signature.image === undefined) return
    signing?.report({ method: 'typed', typedName: signature.typedName })
    onChange(signature.image)
  }
  return (
    <div className="signature" data-field="signature">
      <AgreementSlot />
      {hideLabel && label ? (
        <label className="control-label" htmlFor={id}>
          {label}
          {required ? <span className="required">*</span> : null}
        </label>
      ) : null}
      <LazySignatureField
        id={id}
        isDisabled={disabled || readonly}
        canAdopt={signing?.canAdopt === true}
        onChange={signed}
      />
    </div>
  )
}
