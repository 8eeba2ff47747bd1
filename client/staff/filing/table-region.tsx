import type { ReactNode } from 'react'

/** A table in a region of its own that scrolls sideways on a phone (and with the keyboard's arrows). */
export function TableRegion({
  label,
  headings,
  children,
}: {
  label: string
  headings: string[]
  children: ReactNode
}) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="staff-table">
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col">
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
