import { useEffect } from 'react'
import { Link } from '../routing/router.tsx'
import { useText } from '../i18n/use-text.ts'

export function NotFoundRoute() {
  const t = useText()
  useEffect(() => {
    document.title = t('Page not found')
  }, [t])
  return (
    <section className="card notice">
      <h1>{t('Page not found')}</h1>
      <p>{t('We could not find that page. Please check the address you were given.')}</p>
      <p>
        <Link to="/">{t('Go back to the home page')}</Link>
      </p>
    </section>
  )
}
