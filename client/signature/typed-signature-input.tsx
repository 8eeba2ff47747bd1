import { useEffect, useRef, useState } from 'react'
import { MAX_TYPED_SIGNATURE } from '../../src/signing.ts'
import { useText } from '../i18n/use-text.ts'
import { typedSignaturePng } from './typed-signature.ts'

/** The name as typed (trimmed), and its image in the signature style once drawn: undefined until then. */
export interface TypedSignature {
  typedName: string
  image: string | undefined
}

/**
 * The full name typed as a signature and shown in the signature style. Each keystroke reports the
 * name at once with no image; its image follows when drawn, reported with the very name it shows (a
 * name typed on while an earlier image is drawn wins).
 */
export function TypedSignatureInput({
  id,
  isDisabled,
  describedBy,
  isInvalid,
  onTyped,
}: {
  id: string
  isDisabled: boolean
  describedBy: string
  isInvalid: boolean
  onTyped: (typed: TypedSignature) => void
}) {
  const t = useText()
  const [name, setName] = useState('')
  const [image, setImage] = useState<string>()
  const [hasFailed, setHasFailed] = useState(false)
  const onTypedRef = useRef(onTyped)
  onTypedRef.current = onTyped

  useEffect(() => {
    const typedName = name.trim()
    onTypedRef.current({ typedName, image: undefined })
    if (typedName === '') {
      setImage(undefined)
      return
    }
    let isCurrent = true
    typedSignaturePng(typedName).then(
      (drawn) => {
        if (!isCurrent) return
        setHasFailed(false)
        setImage(drawn)
        onTypedRef.current({ typedName, image: drawn })
      },
      () => isCurrent && setHasFailed(true),
    )
    return () => {
      isCurrent = false
    }
  }, [name])

  return (
    <>
      <label className="typed-signature-label" htmlFor={id}>
        {t('Your full name')}
      </label>
      <input
        id={id}
        className="form-control"
        type="text"
        autoComplete="name"
        maxLength={MAX_TYPED_SIGNATURE}
        value={name}
        disabled={isDisabled}
        aria-describedby={describedBy}
        aria-invalid={isInvalid || undefined}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="typed-signature-preview" aria-hidden="true">
        {name.trim() || '\u00a0'}
      </div>
      <div className="signature-actions">
        {hasFailed ? (
          <span className="field-error" role="alert">
            {t('Your typed signature could not be drawn. Please reload the page and try again.')}
          </span>
        ) : null}
        {image ? (
          <span className="signature-captured" role="status">
            {t('✓ Signature captured')}
          </span>
        ) : null}
      </div>
    </>
  )
}
