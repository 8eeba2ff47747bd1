/** Staff home, accounts, own account and two-factor sign-in, the audit log, the pages a one-time link opens. */
const STAFF_PAGES = [
  '/staff',
  '/staff/accounts',
  '/staff/account',
  '/staff/two-factor',
  '/staff/invite',
  '/staff/setup',
  '/staff/audit',
  '/staff/funnel',
  '/staff/webhooks',
]

/** The pages every site has, whatever its apps. */
const FIXED_PAGES = [
  '/',
  '/view-agreement',
  '/thank-you',
  '/military-analysis',
  '/confirm',
  '/cure',
  '/unsubscribe',
  ...STAFF_PAGES,
]

export type PageAnswer = { status: 200 } | { status: 301; location: string } | { status: 404 }

/**
 * What a page address gets: 200 for a page of the site (the fixed ones, /staff/intake/{id}, and /{app},
 * /{app}-success, /{app}-admin, /{app}-admin/claims/{id} and its /cluster, /{app}-admin/filing, /{app}-admin/batches and /{app}-admin/payouts of a known app), a redirect to its canonical lowercase address when only the letter case
 * differs (`/Brigit` → `/brigit`, query kept), and 404 for anything else.
 * @example pageAnswer('/Brigit', '?lang=es', slugs) // { status: 301, location: '/brigit?lang=es' }
 */
export function pageAnswer(pathname: string, search: string, slugs: ReadonlySet<string>): PageAnswer {
  const isPage = (path: string) => {
    if (FIXED_PAGES.includes(path)) return true
    // an intake's own address in the main page's admin view
    if (/^\/staff\/intake\/\d{1,15}$/.test(path)) return true
    // a claim's own address on its app's dashboard: /{app}-admin/claims/123, and its cluster's, …/123/cluster
    // its filing settings, /{app}-admin/filing, its notices and filing batches, /{app}-admin/batches,
    // and its awards and payout batches, /{app}-admin/payouts
    const page = path
      .slice(1)
      .replace(/^([^/]+-admin)\/(?:claims\/\d{1,15}(?:\/cluster)?|filing|batches|payouts)$/, '$1')
    const slug = page.replace(/-(success|admin)$/, '')
    return !page.includes('/') && (slugs.has(slug) || slugs.has(page))
  }
  if (isPage(pathname)) return { status: 200 }
  const lower = pathname.toLowerCase()
  if (lower !== pathname && isPage(lower)) return { status: 301, location: `${lower}${search}` }
  return { status: 404 }
}
