import { useId, type Ref } from 'react'

/** A labelled one-line input in a form group, the way every staff form lays one out. */
export function TextField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  inputRef,
  describedBy,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  type?: 'text' | 'email'
  autoComplete: string
  inputRef?: Ref<HTMLInputElement>
  /** The id of a message about this field (an error); marks the field invalid while set. */
  describedBy?: string | undefined
}) {
  const id = useId()
  return (
    <div className="form-group">
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        className="form-control"
        type={type}
        autoComplete={autoComplete}
        autoCapitalize={type === 'email' ? 'off' : undefined}
        spellCheck={type === 'email' ? false : undefined}
        required
        value={value}
        aria-invalid={describedBy ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}
