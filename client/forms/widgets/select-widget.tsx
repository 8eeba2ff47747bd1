import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  type WidgetProps,
} from '@rjsf/utils'

/**
 * RJSF's one-choice dropdown, plus the config's `ui:autocomplete` token, which RJSF's own drops: with
 * it (`address-level1` on the state) a phone's autofill picks the choice.
 */
export function SelectWidget({
  schema,
  id,
  options,
  value,
  required,
  disabled,
  readonly,
  autofocus = false,
  onChange,
  onBlur,
  onFocus,
  placeholder,
  htmlName,
  rawErrors,
}: WidgetProps) {
  const { enumOptions, enumDisabled, emptyValue } = options
  const format = getOptionValueFormat(options)
  const decode = (shown: string) => enumOptionValueDecoder(shown, enumOptions, format, emptyValue)
  return (
    <select
      id={id}
      name={htmlName || id}
      className="form-control"
      value={enumOptionSelectedValue(value, enumOptions, false, format, '') as string}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      aria-invalid={rawErrors?.length ? true : undefined}
      onChange={(event) => onChange(decode(event.target.value))}
      onBlur={(event) => onBlur(id, decode(event.target.value))}
      onFocus={(event) => onFocus(id, decode(event.target.value))}
    >
      {schema.default === undefined ? <option value="">{placeholder}</option> : null}
      {(enumOptions ?? []).map(({ value: choice, label }, index) => (
        <option
          key={String(choice)}
          value={enumOptionValueEncoder(choice, index, format)}
          disabled={enumDisabled?.includes(choice)}
        >
          {label}
        </option>
      ))}
    </select>
  )
}
