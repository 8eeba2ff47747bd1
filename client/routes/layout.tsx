import { Suspense, useEffect, type MouseEvent, type ReactNode } from 'react'
import { useLocation } from '../routing/router.tsx'
import { LanguageSwitch } from '../i18n/language-switch.tsx'
import { useLocale } from '../i18n/use-text.ts'
import { Loading } from '../ui/loading.tsx'
import { SiteHeader } from '../ui/site-header.tsx'
import { ErrorBoundary } from './error-boundary.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

/** The address the server answered 404 for when the page loaded (index.html marked so). */
const NOT_FOUND_PATH =
  document.querySelector('meta[name="page-status"]')?.getAttribute('content') === '404'
    ? window.location.pathname
    : undefined

/** Whether the page is the one the server did not know: shown as not found, without asking the API. */
function isNotFound(pathname: string): boolean {
  return pathname === NOT_FOUND_PATH
}

/** Staff pages are in English only: they show no language switch. */
function isStaffPage(pathname: string, search: string): boolean {
  return (
    /^\/[^/]+-admin(\/|$)/.test(pathname) ||
    pathname === '/staff' ||
    pathname.startsWith('/staff/') ||
    pathname === '/military-analysis' ||
    new URLSearchParams(search).has('key')
  )
}

const MAIN_ID = 'main'

/**
 * Moves focus (and the view) to the page's main content without touching the address: /confirm,
 * /cure and /view-agreement read their token from the #fragment, which "#main" would replace.
 */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault()
  document.getElementById(MAIN_ID)?.focus()
}

export function Layout({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation()
  const { locale, t } = useLocale()
  const isStaff = isStaffPage(pathname, search)
  // a screen reader reads a page in the language <html lang> names: staff pages are English
  useEffect(() => {
    document.documentElement.lang = isStaff ? 'en' : locale
  }, [isStaff, locale])
  return (
    <>
      {/* the first Tab of every page: past the header's links, straight to the form or the page's content */}
      <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToMain}>
        {isStaff ? 'Skip to content' : t('Skip to content')}
      </a>
      {/* the firm's name on every page; the language switch only on the claimants' (staff pages are English) */}
      <SiteHeader>{isStaff ? null : <LanguageSwitch />}</SiteHeader>
      <main id={MAIN_ID} className="page" tabIndex={-1}>
        {/* also catches a lazy page whose chunk failed to download */}
        <ErrorBoundary>
          <Suspense fallback={<Loading />}>{isNotFound(pathname) ? <NotFoundRoute /> : children}</Suspense>
        </ErrorBoundary>
      </main>
    </>
  )
}
