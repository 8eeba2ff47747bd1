import { useMemo } from 'react'
import { templates } from 'virtual:agreement-templates'
import { agreementContext, type AgreementAnswers } from '../../src/agreement-context.ts'
import type { FormConfig } from '../../src/form-config.ts'

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
  const html = useMemo(() => {
    const template = templates[config.agreement.template]
    return template ? template(agreementContext({ app: config, answers, date })) : ''
  }, [config, answers, date])
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
