import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useState } from 'react'
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_UPLOAD_BYTES,
  SCREENSHOT_TYPES,
  NOT_AN_IMAGE_MESSAGE,
} from '../../../src/claim-messages.ts'
import { useText } from '../../i18n/use-text.ts'

/** What the claim form hands its widgets: the File itself stays out of the JSON form data. */
export interface ScreenshotContext {
  screenshotPrompt: string
  setScreenshot: (file: File | undefined) => void
}

/**
 * Picks the bank-statement screenshot: images only, at most 10 MB, checked as soon as it is picked.
 * The browser's own file input does the picking (keyboard, screen readers and phones' camera and
 * gallery all work with it); it lies invisible over a button of our own, which says which file was
 * chosen and shows it small.
 */
export function ScreenshotWidget({ id, disabled, readonly, onChange, onBlur, registry, value }: WidgetProps) {
  const t = useText()
  const { screenshotPrompt, setScreenshot } = registry.formContext as ScreenshotContext
  const [pickError, setPickError] = useState<string>()
  const [picked, setPicked] = useState<{ name: string; preview: string }>()
  useEffect(() => () => (picked ? URL.revokeObjectURL(picked.preview) : undefined), [picked])

  const pick = (file: File | undefined, input: HTMLInputElement) => {
    const problem = !file
      ? undefined
      : !SCREENSHOT_TYPES.includes(file.type)
        ? NOT_AN_IMAGE_MESSAGE
        : file.size > MAX_UPLOAD_BYTES
          ? FILE_TOO_LARGE_MESSAGE
          : undefined
    setPickError(problem)
    const accepted = file && !problem ? file : undefined
    if (!accepted) input.value = ''
    setScreenshot(accepted)
    setPicked(accepted ? { name: accepted.name, preview: URL.createObjectURL(accepted) } : undefined)
    onChange(accepted?.name)
  }

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
          aria-describedby={`${id}__prompt ${id}__chosen`}
          disabled={disabled || readonly}
          onChange={(event) => pick(event.target.files?.[0], event.target)}
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
        <p className="field-error" role="alert">
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
