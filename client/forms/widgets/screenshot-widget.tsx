import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_UPLOAD_BYTES,
  SCREENSHOT_TYPES,
  NOT_AN_IMAGE_MESSAGE,
} from '../../../src/claim-messages.ts'
import { SCREENSHOT_HEAD_BYTES, screenshotType } from '../../../src/screenshot-type.ts'
import { useText } from '../../i18n/use-text.ts'

/** What the claim form hands its widgets: the File itself stays out of the JSON form data. */
export interface ScreenshotContext {
  screenshotPrompt: string
  setScreenshot: (file: File | undefined) => void
}

/** What is wrong with a picked file, if anything: a PNG or JPEG by its first bytes, at most 10 MB. */
async function pickProblem(file: File): Promise<string | undefined> {
  const head = new Uint8Array(await file.slice(0, SCREENSHOT_HEAD_BYTES).arrayBuffer())
  if (!screenshotType(head)) return NOT_AN_IMAGE_MESSAGE
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE_MESSAGE
  return undefined
}

/**
 * Picks the bank-statement screenshot: a PNG or JPEG by its content (whatever its name says), at most
 * 10 MB, checked as soon as it is picked; a refused file is not kept. The browser's own file input
 * does the picking (keyboard, screen readers and phones' camera and gallery all work with it); it lies
 * invisible over a button of our own, which says which file was chosen and shows it small.
 */
export function ScreenshotWidget({ id, disabled, readonly, onChange, onBlur, registry, value }: WidgetProps) {
  const t = useText()
  const { screenshotPrompt, setScreenshot } = registry.formContext as ScreenshotContext
  const [pickError, setPickError] = useState<string>()
  const [picked, setPicked] = useState<{ name: string; preview: string }>()
  // a file picked while the one before is still being read wins
  const latestPick = useRef(0)
  useEffect(() => () => (picked ? URL.revokeObjectURL(picked.preview) : undefined), [picked])

  const pick = async (file: File | undefined, input: HTMLInputElement) => {
    const turn = ++latestPick.current
    const problem = file ? await pickProblem(file).catch(() => NOT_AN_IMAGE_MESSAGE) : undefined
    if (turn !== latestPick.current) return
    setPickError(problem)
    const accepted = file && !problem ? file : undefined
    if (!accepted) input.value = ''
    setScreenshot(accepted)
    setPicked(accepted ? { name: accepted.name, preview: URL.createObjectURL(accepted) } : undefined)
    onChange(accepted?.name)
  }

  // Enter opens the picker as Space does, in every browser (the native input's own keys vary)
  const openOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    if (!event.repeat) event.currentTarget.click()
  }

  const errorId = `${id}__error`
  return (
    <div className="screenshot" data-field="screenshotFile">
      <p className="field-help" id={`${id}__prompt`}>
        {screenshotPrompt}
      </p>
      <div className={`file-picker${disabled || readonly ? ' is-disabled' : ''}`}>
        <input
          id={id}
          name={id}
          type="file"
          accept={SCREENSHOT_TYPES.join(',')}
          className="file-picker-input"
          aria-describedby={`${id}__prompt ${id}__chosen${pickError ? ` ${errorId}` : ''}`}
          aria-invalid={pickError ? true : undefined}
          disabled={disabled || readonly}
          onChange={(event) => void pick(event.target.files?.[0], event.target)}
          onKeyDown={openOnEnter}
          onBlur={() => onBlur(id, value)}
        />
        <span className="file-picker-button" aria-hidden="true">
          {picked ? t('Change screenshot') : t('Choose a screenshot')}
        </span>
        <span className="file-picker-name" id={`${id}__chosen`}>
          {picked ? picked.name : t('No file chosen yet')}
        </span>
      </div>
      {pickError ? (
        <p className="field-error" id={errorId} role="alert">
          {t(pickError)}
        </p>
      ) : null}
      {picked ? (
        <img
          className="screenshot-preview"
          src={picked.preview}
          alt={t('Selected bank statement screenshot')}
        />
      ) : null}
    </div>
  )
}
