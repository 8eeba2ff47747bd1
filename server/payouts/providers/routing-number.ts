const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1]

/**
 * Whether `value` is nine digits whose ABA checksum holds: the digits weighted 3, 7, 1 in turn add up
 * to a multiple of 10. It catches any one mistyped digit and most swapped pairs before a bank returns
 * the entry days later.
 * @example isRoutingNumber('021000021') // true
 */
export function isRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false
  const sum = ABA_WEIGHTS.reduce((total, weight, index) => total + weight * Number(value[index]), 0)
  // all zeros passes the sum but is no bank's number
  return sum % 10 === 0 && sum > 0
}
