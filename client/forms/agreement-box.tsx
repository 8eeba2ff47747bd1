import { useEffect, useMemo, useState } from 'react'
import type { templates as agreementTemplates } from 'virtual:agreement-templates'
import { agreementContext, type AgreementAnswers } from '../../src/agreement-context.ts'
import type { FormConfig } from '../../src/form-config.ts'

type Templates = typeof agreementTemplates

/**
 * The app's part of the agreement, filled in live from the form (name, e-mail, phone, signature,
 * today's date) by the same precompiled templates the server signs with.
 */
export function AgreementBox({
  config,
  answers,
  date,
}: {
  config: FormConfig
  answers: AgreementAnswers
  date: string
}) {
  const templates = useAgreementTemplates()
  const html = useMemo(() => {
    const template = templates === 'failed' ? undefined : templates?.[config.agreement.template]
    return template ? template(agreementContext({ app: config, answers, date })) : ''
  }, [templates, config, answers, date])
  if (templates === 'failed') {
    return (
      <p className="alert" role="alert">
        The agreement could not be loaded. Please reload the page before you sign.
      </p>
    )
  }
  if (html.trim() === '') return null
  return (
    <section className="agreement-box" aria-label="Attorney-Client Contingency Fee Agreement">
      <div
        className="agreement-scroll"
        // the templates escape every value; the markup is ours
        dangerouslySetInnerHTML={{ __html: html }}
        tabIndex={0}
        data-testid="agreement-text"
      />
    </section>
  )
}

/**
 * The templates and Handlebars' runtime are their own chunk, fetched once the form is on screen: the
 * agreement sits below the fields, so the claimant can start typing before it arrives.
 */
function useAgreementTemplates(): Templates | 'failed' | undefined {
  const [templates, setTemplates] = useState<Templates | 'failed'>()
  useEffect(() => {
    let isCurrent = true
    import('virtual:agreement-templates').then(
      (loaded) => isCurrent && setTemplates(loaded.templates),
      () => isCurrent && setTemplates('failed'),
    )
    return () => {
      isCurrent = false
    }
  }, [])
  return templates
}
