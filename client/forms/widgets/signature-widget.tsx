import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useRef, useState } from 'react'
import type SignaturePad from 'signature_pad'

/** The spec's pad settings. */
const PAD_OPTIONS = { minWidth: 0.5, maxWidth: 2.5, minDistance: 5, throttle: 16, penColor: '#111827' }

/** Draw with a finger or a mouse; the signature is captured when a stroke ends and removed by Clear. */
export function SignatureWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const padRef = useRef<SignaturePad | null>(null)
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange
  const isOffRef = useRef(disabled || readonly)
  isOffRef.current = disabled || readonly
  const [hasFailed, setHasFailed] = useState(false)

  // signature_pad is its own chunk, fetched once the form is on screen (the pad is the last field)
  useEffect(() => {
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
  }, [])

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

  return (
    <div className="signature">
      <canvas
        id={id}
        ref={canvasRef}
        className="signature-pad"
        role="img"
        aria-label="Signature pad: draw your signature with your finger or mouse"
      />
      <div className="signature-actions">
        <button type="button" className="secondary" onClick={clear} disabled={disabled || readonly}>
          Clear Signature
        </button>
        {hasFailed ? (
          <span className="field-error" role="alert">
            The signature pad could not be loaded. Please reload the page.
          </span>
        ) : null}
        {value ? (
          <span className="signature-captured" role="status">
            ✓ Signature captured
          </span>
        ) : null}
      </div>
    </div>
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
