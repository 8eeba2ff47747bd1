import { Link } from '../../routing/router.tsx'
import type { StaffSession } from './use-staff-session.ts'

/** Who is signed in, and the way out: in the header of every staff page. */
export function StaffUserBar({ session }: { session: StaffSession }) {
  return (
    <div className="staff-user">
      {session.account ? (
        <span className="staff-user-name">
          Signed in as <strong>{session.account.name}</strong>
        </span>
      ) : null}
      <nav aria-label="Staff" className="staff-user-links">
        <Link to="/staff">Staff home</Link>
        <Link to="/staff/account">My account</Link>
      </nav>
      <button type="button" className="secondary on-blue" onClick={() => void session.logOut()}>
        Sign out
      </button>
    </div>
  )
}
