import { useEffect, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import type { templates as agreementTemplates } from 'virtual:agreement-templates/en'
import { BLANK_VARIANTS } from 'virtual:agreement-variants'
import { agreementContext, type AgreementAnswers } from '../../src/agreement-context.ts'
import type { Locale } from '../../src/translate.ts'
import { useLocale } from '../i18n/use-text.ts'
import { useIsNear } from '../ui/use-is-near.ts'
import { useAgreementSlot } from './agreement-slot.tsx'

type Templates = typeof agreementTemplates

/**
 * The app's part of the agreement, filled in live from the form (name, e-mail, phone, signature,
 * today's date) by the same precompiled templates the server signs with. On every form it is drawn
 * into the slot above the signature pad (agreement-slot.tsx), so it is read before it is signed: in
 * full in the page on a phone, in a box most of the window high on a wide screen.
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
  const [isNear, nearRef] = useIsNear()
  // an app whose agreement is a blank file shows none, and downloads no templates for it
  const isBlank = BLANK_VARIANTS.includes(template)
  const templates = useAgreementTemplates(locale, isNear && !isBlank)
  const html = useMemo(() => {
    const render = templates === 'failed' ? undefined : templates?.[template]
    return render ? render(agreementContext({ app, answers, date, locale })) : ''
  }, [templates, template, app, answers, date, locale])
  const shown = isBlank ? null : templates === undefined ? (
    // room kept while the text is fetched (it is fetched a screen ahead, so what grows is out of sight)
    <div className="agreement-box" aria-hidden="true" ref={nearRef}>
      <div className="agreement-scroll agreement-pending" />
    </div>
  ) : templates === 'failed' ? (
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

// a function per language, so each import() keeps its own preload list: Vite gives a conditional between
// two imports one list, and a Spanish page would fetch the English chunk as well
const TEMPLATE_MODULES: Record<Locale, () => Promise<{ templates: Templates }>> = {
  en: () => import('virtual:agreement-templates/en'),
  es: () => import('virtual:agreement-templates/es'),
}

/**
 * The templates and Handlebars' runtime are their own chunks, fetched once the box is a screen away
 * or the claimant starts on the form (`isWanted`): the agreement sits below the fields, so the
 * claimant can start typing before it arrives. Each language is a chunk of its own; a page downloads
 * its language's only.
 */
function useAgreementTemplates(locale: Locale, isWanted: boolean): Templates | 'failed' | undefined {
  const [templates, setTemplates] = useState<Templates | 'failed'>()
  useEffect(() => {
    if (!isWanted) return
    let isCurrent = true
    TEMPLATE_MODULES[locale]().then(
      (loaded) => isCurrent && setTemplates(loaded.templates),
      () => isCurrent && setTemplates('failed'),
    )
    return () => {
      isCurrent = false
    }
  }, [locale, isWanted])
  return templates
}
