import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useRef, useState } from 'react'
import type SignaturePad from 'signature_pad'
import { MAX_TYPED_SIGNATURE } from '../../../src/signing.ts'
import { useText } from '../../i18n/use-text.ts'
import { useIsNear } from '../../ui/use-is-near.ts'
import { AgreementSlot } from '../agreement-slot.tsx'
import { ADOPTED_SIGNATURE_PLACEHOLDER, type SigningMethod, type SigningReport } from './signing.ts'
import { loadSignatureFont, typedSignaturePng } from './typed-signature.ts'

/** The spec's pad settings. */
const PAD_OPTIONS = { minWidth: 0.5, maxWidth: 2.5, minDistance: 5, throttle: 16, penColor: '#111827' }

/**
 * Sign by drawing (finger, mouse or pen) or, for anyone who cannot draw, by typing the full name,
 * which is shown and signed in a signature style. Both give the same PNG; the form is told which way.
 * A page opened by a Step 2 link also offers the main form's signature, adopted with one press.
 * On a form with an agreement it stands first (AgreementSlot), then the field's label: the config
 * hides the label RJSF would put above both ("ui:label": false) and the widget shows it here.
 */
export function SignatureWidget(props: WidgetProps) {
  const { id, label, hideLabel, required, disabled, readonly, onChange, registry } = props
  const t = useText()
  const [method, setMethod] = useState<SigningMethod>('drawn')
  const signing = (registry.formContext as { signing?: SigningReport } | undefined)?.signing
  const isOff = disabled || readonly
  const canAdopt = signing?.canAdopt === true
  const switchTo = (next: SigningMethod) => {
    setMethod(next)
    onChange(next === 'adopted' ? ADOPTED_SIGNATURE_PLACEHOLDER : undefined)
    signing?.report({ method: next })
    if (next === 'typed') void loadSignatureFont().catch(() => undefined)
    // the new control takes focus, so a keyboard user carries on where they are
    setTimeout(() => document.getElementById(id)?.focus())
  }
  const helpId = `${id}-help`
  return (
    <div className="signature" data-field="signature">
      <AgreementSlot />
      {hideLabel && label ? (
        <label className="control-label" htmlFor={id}>
          {label}
          {required ? <span className="required">*</span> : null}
        </label>
      ) : null}
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
        <DrawnSignature {...props} helpId={helpId} onTypeInstead={() => switchTo('typed')} />
      ) : method === 'typed' ? (
        <TypedSignature
          {...props}
          helpId={helpId}
          onName={(typedName) => signing?.report({ method: 'typed', typedName })}
        />
      ) : (
        // focused after the press, so a screen reader says what it did
        <p id={id} className="signature-captured" tabIndex={-1} aria-describedby={helpId}>
          {t('✓ This agreement will be signed with the signature from your main form.')}
        </p>
      )}
      {/* the ways not chosen; the main form's signature only on a page opened by a Step 2 link */}
      {(['typed', 'drawn', 'adopted'] as const)
        .filter((choice) => choice !== method && (choice !== 'adopted' || canAdopt))
        .map((choice) => (
          <button
            key={choice}
            type="button"
            className="link-button"
            disabled={isOff}
            onClick={() => switchTo(choice)}
          >
            {choice === 'typed'
              ? t('Type your signature instead')
              : choice === 'drawn'
                ? t('Draw your signature instead')
                : t('Use the signature from my main form')}
          </button>
        ))}
    </div>
  )
}

function DrawnSignature({
  id,
  value,
  disabled,
  readonly,
  onChange,
  helpId,
  onTypeInstead,
}: WidgetProps & { helpId: string; onTypeInstead: () => void }) {
  const t = useText()
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const padRef = useRef<SignaturePad | null>(null)
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange
  const isOffRef = useRef(disabled || readonly)
  isOffRef.current = disabled || readonly
  const [hasFailed, setHasFailed] = useState(false)
  const [isNear, nearRef] = useIsNear()

  // signature_pad is its own chunk, fetched once the pad (the last field) is a screen away or
  // the claimant starts on the form; the canvas holds its place meanwhile
  useEffect(() => {
    if (!isNear) return
    let isMounted = true
    let detach: (() => void) | undefined
    import('signature_pad').then(
      ({ default: SignaturePadClass }) => {
        const canvas = canvasRef.current
        if (!isMounted || !canvas) return
        const pad = new SignaturePadClass(canvas, PAD_OPTIONS)
        if (isOffRef.current) pad.off()
        padRef.current = pad
        const stopPad = attachPad({ pad, canvas, onStroke: (dataUrl) => onChangeRef.current(dataUrl) })
        detach = () => {
          stopPad()
          padRef.current = null
        }
      },
      () => isMounted && setHasFailed(true),
    )
    return () => {
      isMounted = false
      detach?.()
    }
  }, [isNear])

  useEffect(() => {
    const pad = padRef.current
    if (!pad) return
    if (disabled || readonly) pad.off()
    else pad.on()
  }, [disabled, readonly])

  const clear = () => {
    padRef.current?.clear()
    onChange(undefined)
  }

  const isOff = disabled || readonly
  const keyboardHintId = `${id}-keyboard-hint`
  return (
    <>
      <div className="signature-pad-area" ref={nearRef}>
        <canvas
          id={id}
          ref={canvasRef}
          className="signature-pad"
          role="img"
          tabIndex={0}
          aria-label={t('Signature pad: draw your signature with your finger, a mouse or a pen')}
          aria-describedby={`${helpId} ${keyboardHintId}`}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || isOff) return
            event.preventDefault()
            onTypeInstead()
          }}
          // a screen reader's Enter arrives as a click without a pointer (detail 0); a pen's or finger's has one
          onClick={(event) => {
            if (event.detail === 0 && !isOff) onTypeInstead()
          }}
        />
        {/* shown while the pad has keyboard focus */}
        <p className="signature-keyboard-hint" id={keyboardHintId}>
          {t('Can’t draw? Press Enter to type your name instead.')}
        </p>
      </div>
      <div className="signature-actions">
        <button type="button" className="secondary" onClick={clear} disabled={isOff}>
          {t('Clear Signature')}
        </button>
        {hasFailed ? (
          <span className="field-error" role="alert">
            {t(
              'The signature pad could not be loaded. Please reload the page, or type your signature instead.',
            )}
          </span>
        ) : null}
        {value ? (
          <span className="signature-captured" role="status">
            {t('✓ Signature captured')}
          </span>
        ) : null}
      </div>
    </>
  )
}

function TypedSignature({
  id,
  value,
  disabled,
  readonly,
  onChange,
  helpId,
  onName,
}: WidgetProps & { helpId: string; onName: (name: string) => void }) {
  const t = useText()
  const [name, setName] = useState('')
  const [hasFailed, setHasFailed] = useState(false)
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  // the image follows the name; a name typed on while an earlier image is drawn wins. The form hears
  // the name with its image, so what is sent as typed is always what the image shows
  useEffect(() => {
    const trimmed = name.trim()
    if (trimmed === '') {
      onName('')
      onChangeRef.current(undefined)
      return
    }
    let isCurrent = true
    typedSignaturePng(trimmed).then(
      (dataUrl) => {
        if (!isCurrent) return
        setHasFailed(false)
        onName(trimmed)
        onChangeRef.current(dataUrl)
      },
      () => isCurrent && setHasFailed(true),
    )
    return () => {
      isCurrent = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onName is the form's, stable in effect
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
        disabled={disabled || readonly}
        aria-describedby={helpId}
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
        {value ? (
          <span className="signature-captured" role="status">
            {t('✓ Signature captured')}
          </span>
        ) : null}
      </div>
    </>
  )
}

/** Sizes the canvas to the screen and reports each finished stroke; returns what undoes it. */
function attachPad({
  pad,
  canvas,
  onStroke,
}: {
  pad: SignaturePad
  canvas: HTMLCanvasElement
  onStroke: (dataUrl: string) => void
}): () => void {
  const fit = () => {
    // draw at the screen's pixel density (capped at 2 to keep the PNG small); keep strokes across resizes
    const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 2)
    const strokes = pad.toData()
    canvas.width = canvas.offsetWidth * ratio
    canvas.height = canvas.offsetHeight * ratio
    canvas.getContext('2d')?.scale(ratio, ratio)
    pad.clear()
    if (strokes.length > 0) pad.fromData(strokes)
  }
  fit()
  const captureStroke = () => {
    if (!pad.isEmpty()) onStroke(pad.toDataURL('image/png'))
  }
  pad.addEventListener('endStroke', captureStroke)
  window.addEventListener('resize', fit)
  return () => {
    window.removeEventListener('resize', fit)
    pad.removeEventListener('endStroke', captureStroke)
    pad.off()
  }
}
