import type { ReactNode } from 'react'

/**
 * A table in a region of its own that scrolls sideways on a phone (and with the keyboard's arrows); with
 * `cards`, a phone shows each row as a card instead, its cells named by their data-label.
 */
export function TableRegion({
  label,
  headings,
  moneyHeadings = [],
  cards = false,
  children,
}: {
  label: string
  headings: string[]
  /** The headings over amounts (cells of class "money"): set right, over the cents they head. */
  moneyHeadings?: string[]
  /** For rows whose actions a phone must keep in view: a few rows, each read top to bottom. */
  cards?: boolean
  children: ReactNode
}) {
  return (
    <div
      className={cards ? 'table-scroll phone-cards' : 'table-scroll'}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="staff-table">
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className={moneyHeadings.includes(heading) ? 'money' : undefined}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
