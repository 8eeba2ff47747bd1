import type { ReactNode } from 'react'

/** A narrow column wraps an address after its "@" rather than in the middle of a name (see styles.css). */
export function breakableEmail(email: string): ReactNode {
  const at = email.indexOf('@')
  if (at < 0) return email
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  )
}
