import type { WidgetProps } from '@rjsf/utils'
import { formatPhone, PHONE_MAX_LENGTH } from '../../../src/phone.ts'

/** Keeps digits only and shows them as (XXX) XXX-XXXX while the user types. */
export function PhoneWidget({
  id,
  value,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
}: WidgetProps) {
  return (
    <input
      id={id}
      name={id}
      className="form-control"
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder="(555) 555-5555"
      maxLength={PHONE_MAX_LENGTH}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      onChange={(event) => onChange(formatPhone(event.target.value) || undefined)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  )
}
