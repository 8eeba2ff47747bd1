import type { WidgetProps } from '@rjsf/utils'
import { PhoneInput } from '../phone-input.tsx'

/** The form's phone field: PhoneInput, with the config's autocomplete token ('tel' unless it says). */
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
    <PhoneInput
      id={id}
      name={id}
      className="form-control"
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : 'tel'}
      placeholder="(555) 555-5555"
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      onValueChange={(shown) => onChange(shown || undefined)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  )
}
