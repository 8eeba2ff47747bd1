import { useLayoutEffect, useRef, type ChangeEvent, type InputHTMLAttributes } from 'react'
import { editPhone } from '../../src/phone-edit.ts'
import { PHONE_INPUT_MAX_LENGTH } from '../../src/phone.ts'

type PhoneInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'type' | 'inputMode' | 'maxLength'
> & {
  value: string
  /** The number as the field now shows it, '(555) 867-5309' once complete. */
  onValueChange: (value: string) => void
}

/**
 * A phone field that shows the number as (XXX) XXX-XXXX however it arrives: typed key by key, pasted,
 * or autofilled in one go (often with the +1 that phones and address books add). The caret stays
 * beside the digit it was at, so editing in the middle works as in a plain field.
 */
export function PhoneInput({ value, onValueChange, ...attributes }: PhoneInputProps) {
  const ref = useRef<HTMLInputElement>(null)
  const pendingCaret = useRef<number | null>(null)
  // the country code the last edit took off a complete number, while the field still shows that number
  const lastEdit = useRef<{ value: string; hiddenCountryCode?: string }>({ value: '' })

  function placeCaret() {
    const input = ref.current
    const caret = pendingCaret.current
    if (input && caret !== null && input.ownerDocument.activeElement === input) {
      input.setSelectionRange(caret, caret)
    }
  }
  // after the re-render that shows the re-formatted number, which puts the caret at the end
  useLayoutEffect(placeCaret)

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target
    const inputType = 'inputType' in event.nativeEvent ? String(event.nativeEvent.inputType) : undefined
    const edit = editPhone({
      before: value,
      after: input.value,
      caret: input.selectionStart ?? input.value.length,
      inputType,
      hiddenCountryCode: lastEdit.current.value === value ? lastEdit.current.hiddenCountryCode : undefined,
    })
    lastEdit.current = edit
    pendingCaret.current = edit.caret
    onValueChange(edit.value)
    // an edit that changes nothing shown (a letter typed) re-renders nothing: React puts the old text
    // back after this handler, and the caret with it, so it is placed again once that is done
    queueMicrotask(() => {
      placeCaret()
      pendingCaret.current = null
    })
  }

  return (
    <input
      ref={ref}
      type="tel"
      inputMode="tel"
      maxLength={PHONE_INPUT_MAX_LENGTH}
      value={value}
      onChange={handleChange}
      {...attributes}
    />
  )
}
