import { lazy, Suspense, useEffect } from 'react'
import { formTitle, type FormConfig } from '../../src/form-config.ts'
import { AgreementSlotProvider } from '../forms/agreement-slot.tsx'
import { ClosedNotice } from '../forms/closed-notice.tsx'
import { useFormConfig } from '../forms/use-form-config.ts'
import { translator } from '../../src/translate.ts'
import { FormLanguage, isOfferedOnPage } from '../i18n/form-language.tsx'
import { useLocale, useText } from '../i18n/use-text.ts'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

// the heading and intro show as soon as the config is here; the form renderer follows (see preloadClaimPage)
const ClaimForm = lazy(async () => ({ default: (await import('../forms/claim-form.tsx')).ClaimForm }))

/** /{app}: the app's Step 2 form, or its closed notice. */
export function ClaimRoute({ slug }: { slug: string }) {
  const { locale, t } = useLocale()
  const state = useFormConfig(slug)
  const title =
    state.status === 'ready'
      ? formTitle(state.config, isOfferedOnPage(state.config.languages, locale) ? t : translator(undefined))
      : undefined
  useEffect(() => {
    if (title) document.title = title
  }, [title])

  if (state.status === 'loading') return <Loading label="Loading form..." />
  if (state.status === 'missing') return <NotFoundRoute />
  if (state.status === 'failed') {
    return (
      <section className="card notice" role="alert">
        <h1>{t('This form could not be loaded')}</h1>
        <p>{t('{message}. Please reload the page in a moment.', { message: state.message })}</p>
      </section>
    )
  }
  const { config } = state
  if (config.status.state === 'closed') return <ClosedNotice notice={config.status.notice} />
  return (
    <FormLanguage languages={config.languages}>
      <ClaimCard config={config} />
    </FormLanguage>
  )
}

/** The form's heading, intro and fields, in the form's language (FormLanguage). */
function ClaimCard({ config }: { config: FormConfig }) {
  const t = useText()
  return (
    <article className="card">
      <header className="card-header">
        <h1>{formTitle(config, t)}</h1>
        <p>{config.intro}</p>
      </header>
      {/* the form's agreement stands above its signature pad */}
      <AgreementSlotProvider>
        <Suspense fallback={<Loading label="Loading form..." />}>
          <ClaimForm config={config} />
        </Suspense>
      </AgreementSlotProvider>
    </article>
  )
}
