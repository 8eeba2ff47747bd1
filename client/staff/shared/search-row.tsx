import { useId, type Ref } from 'react'

/**
 * A staff list's search box and its Clear button; the list searches on the server as the term changes,
 * by e-mail, phone or name, or exactly by a claim ID, intake reference (IN-000042) or case number.
 */
export function SearchRow({
  term,
  onTerm,
  ref,
}: {
  term: string
  onTerm: (term: string) => void
  ref?: Ref<HTMLInputElement>
}) {
  const id = useId()
  return (
    <div className="search-row">
      <label htmlFor={id} className="visually-hidden">
        Search submissions
      </label>
      <input
        ref={ref}
        id={id}
        className="form-control"
        type="search"
        placeholder="Search: e-mail, phone, name, claim ID, IN-000042, case number"
        autoComplete="off"
        value={term}
        onChange={(event) => onTerm(event.target.value)}
      />
      <button type="button" className="secondary" disabled={term === ''} onClick={() => onTerm('')}>
        Clear
      </button>
    </div>
  )
}
