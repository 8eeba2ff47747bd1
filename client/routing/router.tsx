import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react'

/**
 * The little routing the site needs: the address, moving to another page without a reload (with state
 * for the page after a form), back and forward, and links. A router library's code was a seventh of
 * every claimant page's JavaScript for these few calls.
 */
export interface Place {
  pathname: string
  search: string
  /** What the page before handed over with navigate(…, { state }); null on a fresh visit. */
  state: unknown
}

type Navigate = (to: string, options?: { replace?: boolean; state?: unknown }) => void

const RouterContext = createContext<{ place: Place; navigate: Navigate } | undefined>(undefined)

function currentPlace(): Place {
  const { pathname, search } = window.location
  const saved = window.history.state as { usr?: unknown } | null
  return { pathname, search, state: saved?.usr ?? null }
}

export function Router({ children }: { children: ReactNode }) {
  const [place, setPlace] = useState(currentPlace)
  useEffect(() => {
    const onPopState = () => setPlace(currentPlace())
    window.addEventListener('popstate', onPopState)
    return () => window.removeEventListener('popstate', onPopState)
  }, [])
  const navigate: Navigate = useCallback((to, { replace = false, state = null } = {}) => {
    const method = replace ? 'replaceState' : 'pushState'
    window.history[method]({ usr: state }, '', to)
    setPlace(currentPlace())
    if (!replace) window.scrollTo(0, 0)
  }, [])
  const value = useMemo(() => ({ place, navigate }), [place, navigate])
  return <RouterContext value={value}>{children}</RouterContext>
}

function useRouter() {
  const router = useContext(RouterContext)
  if (!router) throw new Error('a page component is used outside <Router>')
  return router
}

export function useLocation(): Place {
  return useRouter().place
}

export function useNavigate(): Navigate {
  return useRouter().navigate
}

/** Goes to `to` when drawn (a redirect). */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  const navigate = useNavigate()
  useEffect(() => navigate(to, { replace }), [navigate, to, replace])
  return null
}

/**
 * A link to a page of the site: a plain click moves without reloading; a click with a modifier key, a
 * middle click or `reloadDocument` is left to the browser.
 */
export function Link({
  to,
  reloadDocument = false,
  children,
  ...rest
}: { to: string; reloadDocument?: boolean; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useNavigate()
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(event)
    const isPlain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
    if (reloadDocument || event.defaultPrevented || !isPlain) return
    event.preventDefault()
    navigate(to)
  }
  return (
    <a {...rest} href={to} onClick={onClick}>
      {children}
    </a>
  )
}
