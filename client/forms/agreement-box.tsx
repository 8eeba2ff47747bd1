import { useEffect, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import type { templates as agreementTemplates } from 'virtual:agreement-templates/en'
import { agreementContext, type AgreementAnswers } from '../../src/agreement-context.ts'
import type { Locale } from '../../src/translate.ts'
import { useLocale } from '../i18n/use-text.ts'
import { useAgreementSlot } from './agreement-slot.tsx'

type Templates = typeof agreementTemplates

/**
 * The app's part of the agreement, filled in live from the form (name, e-mail, phone, signature,
 * today's date) by the same precompiled templates the server signs with. On a Step 2 form it is drawn
 * into the slot above the signature pad (agreement-slot.tsx), so it is read before it is signed.
 */
export function AgreementBox({
  template,
  app,
  answers,
  date,
}: {
  /** agreements/<template>.hbs */
  template: string
  /** Whom the agreement names: a Step 2 form's app, or the apps chosen on the main form. */
  app: { displayName: string; slug: string }
  answers: AgreementAnswers
  date: string
}) {
  const { locale, t } = useLocale()
  const slot = useAgreementSlot()
  const templates = useAgreementTemplates(locale)
  const html = useMemo(() => {
    const render = templates === 'failed' ? undefined : templates?.[template]
    return render ? render(agreementContext({ app, answers, date, locale })) : ''
  }, [templates, template, app, answers, date, locale])
  const shown =
    templates === 'failed' ? (
      <p className="alert" role="alert">
        {t('The agreement could not be loaded. Please reload the page before you sign.')}
      </p>
    ) : html.trim() === '' ? null : (
      <section className="agreement-box" aria-label={t('Attorney-Client Contingency Fee Agreement')}>
        <div
          className="agreement-scroll"
          // the templates escape every value; the markup is ours
          dangerouslySetInnerHTML={{ __html: html }}
          tabIndex={0}
          data-testid="agreement-text"
        />
      </section>
    )
  return slot ? createPortal(shown, slot) : shown
}

/**
 * The templates and Handlebars' runtime are their own chunks, fetched once the form is on screen: the
 * agreement sits below the fields, so the claimant can start typing before it arrives. Each language
 * is a chunk of its own; a page downloads its language's only.
 */
function useAgreementTemplates(locale: Locale): Templates | 'failed' | undefined {
  const [templates, setTemplates] = useState<Templates | 'failed'>()
  useEffect(() => {
    let isCurrent = true
    const load =
      locale === 'es' ? import('virtual:agreement-templates/es') : import('virtual:agreement-templates/en')
    load.then(
      (loaded) => isCurrent && setTemplates(loaded.templates),
      () => isCurrent && setTemplates('failed'),
    )
    return () => {
      isCurrent = false
    }
  }, [locale])
  return templates
}
