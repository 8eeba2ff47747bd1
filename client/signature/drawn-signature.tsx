import { useEffect, useRef, useState } from 'react'
import type SignaturePad from 'signature_pad'
import { useText } from '../i18n/use-text.ts'
import { useIsNear } from '../ui/use-is-near.ts'

/** The spec's pad settings. */
const PAD_OPTIONS = { minWidth: 0.5, maxWidth: 2.5, minDistance: 5, throttle: 16, penColor: '#111827' }

/**
 * The pad drawn on with a finger, a mouse or a pen; each finished stroke gives the whole drawing as a
 * PNG data URL (onImage), and Clear gives undefined. Enter on the focused pad, or a screen reader's
 * press, asks for the typed name instead.
 */
export function DrawnSignature({
  id,
  image,
  isDisabled,
  describedBy,
  onImage,
  onTypeInstead,
}: {
  id: string
  image: string | undefined
  isDisabled: boolean
  /** The ids of the texts that describe the pad: its help, and a message about it. */
  describedBy: string
  onImage: (image: string | undefined) => void
  onTypeInstead: () => void
}) {
  const t = useText()
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const padRef = useRef<SignaturePad | null>(null)
  const onImageRef = useRef(onImage)
  onImageRef.current = onImage
  const isDisabledRef = useRef(isDisabled)
  isDisabledRef.current = isDisabled
  const [hasFailed, setHasFailed] = useState(false)
  const [isNear, nearRef] = useIsNear()

  // signature_pad is its own chunk, fetched once the pad is a screen away or the claimant starts on
  // the page; the canvas holds its place meanwhile
  useEffect(() => {
    if (!isNear) return
    let isMounted = true
    let detach: (() => void) | undefined
    import('signature_pad').then(
      ({ default: SignaturePadClass }) => {
        const canvas = canvasRef.current
        if (!isMounted || !canvas) return
        const pad = new SignaturePadClass(canvas, PAD_OPTIONS)
        if (isDisabledRef.current) pad.off()
        padRef.current = pad
        const stopPad = attachPad({ pad, canvas, onStroke: (dataUrl) => onImageRef.current(dataUrl) })
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
    if (isDisabled) pad.off()
    else pad.on()
  }, [isDisabled])

  const clear = () => {
    padRef.current?.clear()
    onImage(undefined)
  }

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
          aria-describedby={`${describedBy} ${keyboardHintId}`}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || isDisabled) return
            event.preventDefault()
            onTypeInstead()
          }}
          // a screen reader's Enter arrives as a click without a pointer (detail 0); a pen's or finger's has one
          onClick={(event) => {
            if (event.detail === 0 && !isDisabled) onTypeInstead()
          }}
        />
        {/* shown while the pad has keyboard focus */}
        <p className="signature-keyboard-hint" id={keyboardHintId}>
          {t('Can’t draw? Press Enter to type your name instead.')}
        </p>
      </div>
      <div className="signature-actions">
        <button type="button" className="secondary" onClick={clear} disabled={isDisabled}>
          {t('Clear Signature')}
        </button>
        {hasFailed ? (
          <span className="field-error" role="alert">
            {t(
              'The signature pad could not be loaded. Please reload the page, or type your signature instead.',
            )}
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
