import { useId } from 'react'

/** A staff list's search box and its Clear button; the list searches on the server as the term changes. */
export function SearchRow({ term, onTerm }: { term: string; onTerm: (term: string) => void }) {
  const id = useId()
  return (
    <div className="search-row">
      <label htmlFor={id} className="visually-hidden">
        Search submissions
      </label>
      <input
        id={id}
        className="form-control"
        type="search"
        placeholder="Search by phone number or email..."
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
