import { useRef, useState } from 'react'
import type { ClaimSigningMethod } from '../../src/signing.ts'
import { useText } from '../i18n/use-text.ts'
import { DrawnSignature } from './drawn-signature.tsx'
import { TypedSignatureInput } from './typed-signature-input.tsx'
import { loadSignatureFont } from './typed-signature.ts'

/**
 * What the field holds as the claimant signs: the drawing's PNG (undefined while the pad is empty), the
 * name as typed with its image in the signature style (undefined until drawn for that very name), or
 * the main form's signature adopted (the server takes it from the intake; the browser never holds it).
 */
export type FieldSignature =
  | { method: 'drawn'; image: string | undefined }
  | { method: 'typed'; typedName: string; image: string | undefined }
  | { method: 'adopted' }

export interface SignatureFieldProps {
  /** The id of the control shown: the pad, the name's input, or the adopted line. */
  id: string
  isDisabled?: boolean
  canAdopt?: boolean
  /** The id of a message about the signature, shown by the page. */
  errorId?: string
  onChange: (signature: FieldSignature) => void
}

/**
 * Sign by drawing (finger, mouse or pen) or, for anyone who cannot draw, by typing the full name,
 * which is shown and drawn in a signature style; with `canAdopt`, also by the main form's signature,
 * taken with one press. The one pad of every page that signs: a claim's form (SignatureWidget), a cure,
 * a settlement consent and a W-9. The page gives the label and any message (`errorId`); each change
 * comes to `onChange`.
 */
export function SignatureField({
  id,
  isDisabled = false,
  canAdopt = false,
  errorId,
  onChange,
}: SignatureFieldProps) {
  const t = useText()
  const [method, setMethod] = useState<ClaimSigningMethod>('drawn')
  const [drawnImage, setDrawnImage] = useState<string>()
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  const switchTo = (next: ClaimSigningMethod) => {
    setMethod(next)
    setDrawnImage(undefined)
    onChange(
      next === 'adopted'
        ? { method: 'adopted' }
        : next === 'typed'
          ? { method: 'typed', typedName: '', image: undefined }
          : { method: 'drawn', image: undefined },
    )
    if (next === 'typed') void loadSignatureFont().catch(() => undefined)
    // the new control takes focus, so a keyboard user carries on where they are
    setTimeout(() => document.getElementById(id)?.focus())
  }
  const helpId = `${id}-help`
  const describedBy = errorId ? `${helpId} ${errorId}` : helpId
  return (
    <>
      <p id={helpId} className="signature-help">
        {method === 'drawn'
          ? t(
              'Draw your signature in the box with your finger, a mouse or a pen. If you cannot draw, choose “Type your signature instead”.',
            )
          : method === 'typed'
            ? t('Type your full name as your signature. It is shown in a signature style.')
            : t('To sign another way, choose to draw or type your signature instead.')}
      </p>
      {method === 'drawn' ? (
        <DrawnSignature
          id={id}
          image={drawnImage}
          isDisabled={isDisabled}
          describedBy={describedBy}
          onImage={(image) => {
            setDrawnImage(image)
            onChangeRef.current({ method: 'drawn', image })
          }}
          onTypeInstead={() => switchTo('typed')}
        />
      ) : method === 'typed' ? (
        <TypedSignatureInput
          id={id}
          isDisabled={isDisabled}
          describedBy={describedBy}
          isInvalid={errorId !== undefined}
          onTyped={(typed) => onChangeRef.current({ method: 'typed', ...typed })}
        />
      ) : (
        // focused after the press, so a screen reader says what it did
        <p id={id} className="signature-captured" tabIndex={-1} aria-describedby={helpId}>
          {t('✓ This agreement will be signed with the signature from your main form.')}
        </p>
      )}
      {/* the ways not chosen; the main form's signature only where it can be adopted */}
      {(['typed', 'drawn', 'adopted'] as const)
        .filter((choice) => choice !== method && (choice !== 'adopted' || canAdopt))
        .map((choice) => (
          <button
            key={choice}
            type="button"
            className="link-button"
            disabled={isDisabled}
            onClick={() => switchTo(choice)}
          >
            {choice === 'typed'
              ? t('Type your signature instead')
              : choice === 'drawn'
                ? t('Draw your signature instead')
                : t('Use the signature from my main form')}
          </button>
        ))}
    </>
  )
}
