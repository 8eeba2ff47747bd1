import { useEffect, useState } from 'react'
import { useText } from '../i18n/use-text.ts'
import { useIsNear } from '../ui/use-is-near.ts'
import type { SignatureField, SignatureFieldProps } from './signature-field.tsx'

type Loaded = { SignatureField: typeof SignatureField }

let loading: Promise<Loaded> | undefined
let loaded: Loaded | undefined

function loadSignatureField(): Promise<Loaded> {
  loading ??= import('./signature-field.tsx').then((module) => (loaded = module))
  // a failed download is not kept: the next field that mounts tries again
  loading.catch(() => (loading = undefined))
  return loading
}

/**
 * SignatureField for a form whose signature comes after its fields (a claim's, the main intake's):
 * the pad's code is its own chunk, fetched once the field is a screen away or the claimant starts on
 * the page (useIsNear), so a page's first bytes are the fields above it. Room for the pad is kept
 * meanwhile.
 */
export function LazySignatureField(props: SignatureFieldProps) {
  const t = useText()
  const [isNear, nearRef] = useIsNear()
  const [field, setField] = useState<Loaded | 'failed' | undefined>(loaded)
  useEffect(() => {
    if (!isNear || field !== undefined) return
    let isCurrent = true
    loadSignatureField().then(
      (module) => isCurrent && setField(module),
      () => isCurrent && setField('failed'),
    )
    return () => {
      isCurrent = false
    }
  }, [isNear, field])
  if (field === undefined) return <div className="signature-pending" aria-hidden="true" ref={nearRef} />
  if (field === 'failed') {
    return (
      <p className="field-error" role="alert">
        {t('The signature pad could not be loaded. Please reload the page.')}
      </p>
    )
  }
  return <field.SignatureField {...props} />
}
