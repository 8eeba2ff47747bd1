import { ariaDescribedByIds, enumOptionsIsSelected, optionId, type WidgetProps } from '@rjsf/utils'

/**
 * Yes/No (or any enum) radios in a radiogroup named by the question, so a screen reader announces the
 * question with each answer. RJSF's own radio group has a <label for> pointing at a div, which names nothing.
 */
export function RadioGroupWidget({
  id,
  label,
  options,
  value,
  required,
  disabled,
  readonly,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const { enumOptions = [] } = options
  const isDisabled = disabled || readonly
  return (
    <div
      className="field-radio-group"
      id={id}
      role="radiogroup"
      aria-label={label}
      aria-required={required || undefined}
      aria-invalid={rawErrors?.length ? true : undefined}
    >
      {enumOptions.map((option, index) => (
        <label key={String(option.value)} className={`radio-inline ${isDisabled ? 'disabled' : ''}`}>
          <span>
            <input
              type="radio"
              id={optionId(id, index)}
              name={id}
              checked={enumOptionsIsSelected(option.value, value)}
              disabled={isDisabled}
              onChange={() => onChange(option.value)}
              onBlur={() => onBlur(id, value)}
              onFocus={() => onFocus(id, value)}
              aria-describedby={ariaDescribedByIds(id)}
            />
            <span>{option.label}</span>
          </span>
        </label>
      ))}
    </div>
  )
}

/**
 * RJSF's checkbox group inside a group named by the question, for the same reason as the radios.
 * Values listed in the `hiddenValues` ui:option (closed apps) are not offered.
 */
export function CheckboxGroupWidget(props: WidgetProps) {
  const { CheckboxesWidget } = props.registry.widgets
  if (!CheckboxesWidget) throw new Error('RJSF registry has no CheckboxesWidget')
  const { hiddenValues, enumOptions } = props.options
  const options = Array.isArray(hiddenValues)
    ? { ...props.options, enumOptions: enumOptions?.filter((option) => !hiddenValues.includes(option.value)) }
    : props.options
  return (
    <div role="group" aria-label={props.label}>
      <CheckboxesWidget {...props} options={options} />
    </div>
  )
}
