/**
 * A taxpayer or bank number as an error message or a log may show it: its last four digits only.
 * @example maskNumber('021000021') // '*****0021'
 */
export function maskNumber(value: string): string {
  const digits = value.replace(/\D/g, '')
  // a number of four digits or fewer would be shown whole: none of it is shown then
  if (digits.length <= 4) return '****'
  return `${'*'.repeat(Math.min(digits.length - 4, 5))}${digits.slice(-4)}`
}
