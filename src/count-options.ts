export interface CountOption {
  value: number
  label: string
}

export interface CountOptionsSpec {
  max: number
  singular: string
  plural: string
}

/**
 * The choices of a count dropdown: 1..max, the last one labelled 'max+'.
 * @example countOptions({ max: 3, singular: 'time', plural: 'times' }).map((o) => o.label)
 * // ['1 time', '2 times', '3+ times']
 */
export function countOptions({ max, singular, plural }: CountOptionsSpec): CountOption[] {
  return Array.from({ length: max }, (_, index) => {
    const value = index + 1
    const unit = value === 1 ? singular : plural
    return { value, label: value === max ? `${value}+ ${unit}` : `${value} ${unit}` }
  })
}
