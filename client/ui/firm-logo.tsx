import { useId } from 'react'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

/** Words that say what kind of firm it is, not which one: left out of the monogram. */
const GENERIC_WORDS = new Set(['the', 'of', 'and', '&', 'law', 'group', 'firm', 'llp', 'llc', 'pc', 'apc'])

/**
 * The monogram: initials of the distinctive words of the firm's name, at most three.
 * @example firmInitials('Cash Advance Claims Law Group') // 'CAC'
 */
export function firmInitials(firmName: string): string {
  const words = firmName.split(/\s+/).filter(Boolean)
  const distinctive = words.filter((word) => !GENERIC_WORDS.has(word.toLowerCase()))
  return (distinctive.length > 0 ? distinctive : words)
    .slice(0, 3)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('')
}

/** Our own mark: a shield with the firm's initials over a small balance beam. Its name is the firm's. */
export function FirmLogo({ className, size = 64 }: { className?: string; size?: number }) {
  const titleId = useId()
  const name = FIRM_SETTINGS.firmName
  const initials = firmInitials(name)
  return (
    <svg
      className={className ? `firm-logo ${className}` : 'firm-logo'}
      role="img"
      aria-labelledby={titleId}
      width={size}
      height={size * 1.15}
      viewBox="0 0 100 115"
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={titleId}>{name}</title>
      <path
        d="M50 4 L92 18 V55 C92 82 73 100 50 110 C27 100 8 82 8 55 V18 Z"
        fill="#1e3a8a"
        stroke="#fbbf24"
        strokeWidth="5"
        strokeLinejoin="round"
      />
      <path
        d="M50 14 L83 25 V55 C83 76 68 91 50 99 C32 91 17 76 17 55 V25 Z"
        fill="none"
        stroke="#ffffff"
        strokeOpacity="0.35"
        strokeWidth="1.5"
      />
      <g stroke="#fbbf24" strokeWidth="2.5" strokeLinecap="round" fill="none">
        <path d="M50 24 V34" />
        <path d="M30 31 H70" />
        <path d="M30 31 L24 42 H36 Z M70 31 L64 42 H76 Z" fill="#fbbf24" fillOpacity="0.25" />
      </g>
      <text
        x="50"
        y="76"
        textAnchor="middle"
        fill="#ffffff"
        fontFamily="Georgia, 'Times New Roman', serif"
        fontWeight="700"
        fontSize={initials.length > 2 ? 24 : 30}
        letterSpacing="1"
      >
        {initials}
      </text>
    </svg>
  )
}
