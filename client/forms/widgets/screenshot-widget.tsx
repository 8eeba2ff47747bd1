import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useState } from 'react'
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_UPLOAD_BYTES,
  NOT_AN_IMAGE_MESSAGE,
} from '../../../src/claim-messages.ts'

/** What the claim form hands its widgets: the File itself stays out of the JSON form data. */
export interface ScreenshotContext {
  screenshotPrompt: string
  setScreenshot: (file: File | undefined) => void
}

/** Picks the bank-statement screenshot: images only, at most 10 MB, checked as soon as it is picked. */
export function ScreenshotWidget({ id, disabled, readonly, onChange, onBlur, registry, value }: WidgetProps) {
  const { screenshotPrompt, setScreenshot } = registry.formContext as ScreenshotContext
  const [pickError, setPickError] = useState<string>()
  const [preview, setPreview] = useState<string>()
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview])

  const pick = (file: File | undefined, input: HTMLInputElement) => {
    const problem = !file
      ? undefined
      : !file.type.startsWith('image/')
        ? NOT_AN_IMAGE_MESSAGE
        : file.size > MAX_UPLOAD_BYTES
          ? FILE_TOO_LARGE_MESSAGE
          : undefined
    setPickError(problem)
    const accepted = file && !problem ? file : undefined
    if (!accepted) input.value = ''
    setScreenshot(accepted)
    setPreview(accepted ? URL.createObjectURL(accepted) : undefined)
    onChange(accepted?.name)
  }

  return (
    <div className="screenshot">
      <p className="field-help" id={`${id}__prompt`}>
        {screenshotPrompt}
      </p>
      <input
        id={id}
        name={id}
        type="file"
        accept="image/*"
        className="form-control"
        aria-describedby={`${id}__prompt`}
        disabled={disabled || readonly}
        onChange={(event) => pick(event.target.files?.[0], event.target)}
        onBlur={() => onBlur(id, value)}
      />
      {pickError ? (
        <p className="field-error" role="alert">
          {pickError}
        </p>
      ) : null}
      {preview ? (
        <img className="screenshot-preview" src={preview} alt="Selected bank statement screenshot" />
      ) : null}
    </div>
  )
}
