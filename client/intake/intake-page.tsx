import { lazy, Suspense, useEffect } from 'react'
import { intakeAppChoices } from '../../src/intake-config.ts'
import { ClosedNotice } from '../forms/closed-notice.tsx'
import { importValidatorFunctions, intakeValidatorUrl } from '../forms/validator-module.ts'
import { useText } from '../i18n/use-text.ts'
import { Loading } from '../ui/loading.tsx'
import { LandingCopy } from './landing-copy.tsx'
import { useIntakeConfig } from './use-intake-config.ts'
import { FormLanguage } from '../i18n/form-language.tsx'

// the form renderer is the heavy part: it loads while the landing copy is already on screen
const IntakeForm = lazy(async () => ({ default: (await import('./intake-form.tsx')).IntakeForm }))

/** '/': the landing copy, a closed notice per closed app, then the intake form. */
export function IntakePage() {
  const t = useText()
  const state = useIntakeConfig()
  // the form's code and validator download while the config does, not after it
  useEffect(() => {
    importValidatorFunctions(intakeValidatorUrl()).catch(() => undefined)
    import('./intake-form.tsx').catch(() => undefined)
  }, [])
  const config = state.status === 'ready' ? state.config : undefined
  const title = config?.title ?? t('Cash Advance App Claims')
  useEffect(() => {
    document.title = title
  }, [title])
  const hasOpenApps = config
    ? intakeAppChoices(config).some((choice) => !Object.hasOwn(config.closedApps, choice.value))
    : false
  const closedNotices = config ? Object.entries(config.closedApps) : []

  return (
    <article className="card intake-card">
      <header className="card-header intake-header">
        <h1>{title}</h1>
      </header>
      <div className="card-body">
        <LandingCopy />
        {closedNotices.length > 0 ? (
          <div className="intake-closed">
            {closedNotices.map(([app, notice]) => (
              <ClosedNotice key={app} notice={notice} level={2} />
            ))}
          </div>
        ) : null}
      </div>
      {state.status === 'loading' ? <Loading label="Loading form..." /> : null}
      {state.status === 'failed' ? (
        <div className="card-body">
          <p className="alert" role="alert">
            {t('The form could not be loaded ({message}). Please reload the page in a moment.', {
              message: state.message,
            })}
          </p>
        </div>
      ) : null}
      {config && hasOpenApps ? (
        <FormLanguage languages={config.languages}>
          <Suspense fallback={<Loading label="Loading form..." />}>
            <IntakeForm config={config} />
          </Suspense>
        </FormLanguage>
      ) : null}
    </article>
  )
}
