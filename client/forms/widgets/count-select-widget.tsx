import type { WidgetProps } from '@rjsf/utils'
import { useMemo } from 'react'
import { countOptions } from '../../../src/count-options.ts'

/** A 1..max dropdown ('1 time', '2 times', …, '50+ times'); max and unit names come from ui:options. */
export function CountSelectWidget({
  id,
  value,
  disabled,
  readonly,
  options,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const max = Number(options.max ?? 10)
  const singular = String(options.singular ?? '')
  const plural = String(options.plural ?? singular)
  const choices = useMemo(() => countOptions({ max, singular, plural }), [max, singular, plural])
  return (
    <select
      id={id}
      name={id}
      className="form-control"
      value={typeof value === 'number' ? value : 1}
      disabled={disabled || readonly}
      onChange={(event) => onChange(Number(event.target.value))}
      onBlur={(event) => onBlur(id, Number(event.target.value))}
      onFocus={(event) => onFocus(id, Number(event.target.value))}
    >
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  )
}
