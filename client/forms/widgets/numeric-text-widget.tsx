import type { WidgetProps } from '@rjsf/utils'

/**
 * A text field of digits (a ZIP code) that brings up a phone's number keypad; text, not a number
 * input, so leading zeros and a ZIP+4 dash survive.
 */
export function NumericTextWidget({
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
      type="text"
      inputMode="numeric"
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : 'off'}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  )
}
