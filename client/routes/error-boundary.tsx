import { Component, type ReactNode } from 'react'
import { Link } from '../routing/router.tsx'
import { useText } from '../i18n/use-text.ts'

function UnexpectedError() {
  const t = useText()
  return (
    <section className="card notice" role="alert">
      <h1>{t('Unexpected Application Error!')}</h1>
      <p>
        {t(
          'Something went wrong while showing this page. Your information was not lost if you already submitted it.',
        )}
      </p>
      <p>
        <Link to="/" reloadDocument>
          {t('Go back to the home page')}
        </Link>
      </p>
    </section>
  )
}

/** Catches render errors inside a route, so the layout stays and the user gets a way back. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? <UnexpectedError /> : this.props.children
  }
}
