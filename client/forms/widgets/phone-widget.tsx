import type { WidgetProps } from '@rjsf/utils'
import { formatPhone, PHONE_INPUT_MAX_LENGTH } from '../../../src/phone.ts'

/**
 * Shows the number as (XXX) XXX-XXXX however it arrives: typed key by key, pasted or autofilled, with
 * or without the +1 that phones and address books add.
 */
export function PhoneWidget({
  id,
  value,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
  options,
}: WidgetProps) {
  return (
    <input
      id={id}
      name={id}
      className="form-control"
      type="tel"
      inputMode="tel"
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : 'tel'}
      placeholder="(555) 555-5555"
      maxLength={PHONE_INPUT_MAX_LENGTH}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      onChange={(event) => onChange(formatPhone(event.target.value) || undefined)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  )
}
