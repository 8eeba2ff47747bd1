import type { WidgetProps } from '@rjsf/utils'
import { lazy, Suspense, useRef, useState } from 'react'
import type { AgreementAnswers } from '../../../src/agreement-context.ts'
import { Loading } from '../../ui/loading.tsx'
import { useText } from '../../i18n/use-text.ts'

/** What the consent's agreement is filled in with: the form passes it as formContext.agreement. */
export interface ConsentAgreement {
  template: string
  app: { displayName: string; slug: string }
  answers: AgreementAnswers
  date: string
}

/**
 * The main consent's checkbox, and the agreement it names one press away: a dialog with the agreement
 * filled in from the form as the claimant will sign it (the native dialog keeps focus inside and
 * closes with Escape).
 */
// the agreement's code comes with the first press: most claimants open it once, or not at all
const AgreementBox = lazy(async () => ({
  default: (await import('../../forms/agreement-box.tsx')).AgreementBox,
}))

export function ConsentWidget(props: WidgetProps) {
  const t = useText()
  const dialog = useRef<HTMLDialogElement>(null)
  const [hasOpened, setHasOpened] = useState(false)
  const Checkbox = props.registry.widgets.CheckboxWidget!
  const agreement = (props.registry.formContext as { agreement?: ConsentAgreement } | undefined)?.agreement
  return (
    <div className="consent-with-agreement">
      {/* the config hides the field's own label (ui:options.label false): the checkbox carries it */}
      <Checkbox {...props} hideLabel={false} />
      {agreement ? (
        <>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setHasOpened(true)
              dialog.current?.showModal()
            }}
          >
            {t('Read the Attorney-Client Agreement')}
          </button>
          <dialog ref={dialog} className="agreement-dialog" aria-labelledby={`${props.id}-agreement-title`}>
            <div className="agreement-dialog-header">
              <h2 id={`${props.id}-agreement-title`}>{t('Attorney-Client Agreement')}</h2>
              <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
                {t('Close')}
              </button>
            </div>
            {hasOpened ? (
              <Suspense fallback={<Loading />}>
                <AgreementBox {...agreement} />
              </Suspense>
            ) : null}
          </dialog>
        </>
      ) : null}
    </div>
  )
}
