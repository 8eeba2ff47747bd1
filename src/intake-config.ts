import type { RJSFSchema, UiSchema } from '@rjsf/utils'
import { joinWithAnd } from './agreement-context.ts'
import type { ClosedNotice, TrackingEvent } from './form-config.ts'
import type { Locale } from './translate.ts'

/** The answers of the main intake form, as the browser sends them. */
export interface IntakeData {
  cashAdvanceApps: string[]
  feesIncurred: string[]
  isOver18: boolean
  isActiveMilitary: boolean
  hasBankruptcy: boolean
  firstName: string
  lastName: string
  email: string
  phone: string
  address: string
  addressLine2?: string
  city: string
  state: string
  zipCode: string
  signature: string
  consentAgreed: boolean
  communicationsConsent?: boolean
}

/**
 * forms/intake.json, checked against forms/intake-config.schema.json at start-up.
 * @example intakeAppChoices(config) // [{ value: 'earnin', label: 'Earnin' }, …]
 */
export interface IntakeConfig {
  title: string
  /** agreements/<template>.hbs: the agreement the main consent names, shown on `/` and signed with the intake. */
  agreement: { template: string }
  /** Stored with every intake, together with the consent texts shown (the schema titles). */
  consentVersion: string
  /** Apps that show a closed notice instead of being selectable, by value. */
  closedApps: Record<string, ClosedNotice>
  schema: RJSFSchema
  uiSchema: UiSchema
  tracking: { thankYou: TrackingEvent[] }
  /** As FormConfig's: named in forms/intake.json (optional), resolved in the config the server serves. */
  languages?: string[]
}

export interface IntakeAppChoice {
  value: string
  label: string
}

/**
 * The apps the intake form lists, from its schema (oneOf const/title), closed ones included.
 * @example intakeAppChoices(config)[0] // { value: 'earnin', label: 'Earnin' }
 */
export function intakeAppChoices(config: Pick<IntakeConfig, 'schema'>): IntakeAppChoice[] {
  const apps = config.schema.properties?.cashAdvanceApps
  const items =
    typeof apps === 'object' && typeof apps.items === 'object' && !Array.isArray(apps.items) ? apps.items : {}
  return (items.oneOf ?? []).flatMap((option) =>
    typeof option === 'object' && typeof option.const === 'string'
      ? [{ value: option.const, label: option.title ?? option.const }]
      : [],
  )
}

/**
 * Whom the main form's agreement names: the apps chosen, by their labels (before any is chosen, the
 * words `noneChosen` give), and whether they are several, so the text says "apps" for them.
 * @example intakeAgreementApp({ config, chosen: ['earnin', 'chime'], locale: 'en', noneChosen: '…' }).displayName // 'Earnin and Chime'
 */
export function intakeAgreementApp({
  config,
  chosen,
  locale,
  noneChosen,
}: {
  config: Pick<IntakeConfig, 'schema'>
  chosen: readonly unknown[]
  locale: Locale
  noneChosen: string
}): { displayName: string; slug: string; isSeveral: boolean; isNoneChosen: boolean } {
  const labels = intakeAppChoices(config)
    .filter((choice) => chosen.includes(choice.value))
    .map((choice) => choice.label)
  return {
    displayName: labels.length > 0 ? joinWithAnd(labels, locale) : noneChosen,
    slug: 'intake',
    // none chosen yet reads as several: noneChosen names "the cash advance apps you choose", whole
    isSeveral: labels.length !== 1,
    isNoneChosen: labels.length === 0,
  }
}

/** The consent texts as shown: the titles of the two consent checkboxes. */
export function intakeConsentTexts(config: Pick<IntakeConfig, 'schema'>): {
  main: string
  communications: string
} {
  const title = (name: string) => {
    const property = config.schema.properties?.[name]
    return typeof property === 'object' ? (property.title ?? '') : ''
  }
  return { main: title('consentAgreed'), communications: title('communicationsConsent') }
}
