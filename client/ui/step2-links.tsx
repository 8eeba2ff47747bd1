import type { Step2Link } from '../../src/journey-config.ts'
import { useText } from '../i18n/use-text.ts'
import { Link } from '../routing/router.tsx'

/**
 * "File your {app} claim" for each app, each opening its Step 2 form pre-filled: big buttons for the
 * apps the claimant chose, a plain list for the others.
 */
export function Step2Links({ steps, look = 'buttons' }: { steps: Step2Link[]; look?: 'buttons' | 'list' }) {
  const t = useText()
  return (
    <ul className={look === 'buttons' ? 'step2-links' : 'step2-list'}>
      {steps.map((step) => (
        <li key={step.app}>
          <Link className={look === 'buttons' ? 'step2-button' : undefined} to={step.path}>
            {t('File your {app} claim', { app: step.appName })}
          </Link>
        </li>
      ))}
    </ul>
  )
}
