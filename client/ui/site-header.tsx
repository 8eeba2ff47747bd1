import type { ReactNode } from 'react'
import { Link } from '../routing/router.tsx'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

/**
 * The firm's name and mark on every claimant page (a claimant is asked for a bank statement and a
 * signature, and should see whom they give them to), linking home; `children` sit at its end. The mark
 * is an image the server draws from firm.json; the name beside it says what it is.
 */
export function SiteHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="site-header">
      <Link to="/" className="site-brand">
        <img className="site-logo" src="/firm-logo.svg" alt="" width={30} height={35} />
        <span className="site-firm-name">{FIRM_SETTINGS.firmName}</span>
      </Link>
      {children}
    </header>
  )
}
