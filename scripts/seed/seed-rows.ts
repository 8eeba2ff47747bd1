import crypto from 'node:crypto'
import type { Insertable } from 'kysely'
import { agreementContext } from '../../src/agreement-context.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { AgreementTemplates } from '../../server/agreements/agreement-templates.ts'
import type {
  AgreementRecordsTable,
  ClaimsTable,
  FormSubmissionsTable,
  IntakeCasesTable,
} from '../../server/db/database.ts'
import { claimCounts, unit, type Claimant } from './claimants.ts'
import { CITIES, STREET_NAMES, US_STATES, USER_AGENTS } from './names.ts'

/** How a run of the seed spreads its claims over the apps. */
export interface SeedPlan {
  apps: string[]
  /** One app that gets hotShare of the claims (a big campaign); the rest share the others by weight. */
  hotApp: string | undefined
  hotShare: number
  /** Claimant numbers start here, past every claimant an earlier run made, so phones stay unique. */
  personOffset: number
}

// rough campaign sizes: a larger number gets more of the claims
const APP_WEIGHTS: Record<string, number> = {
  earnin: 20,
  chime: 15,
  brigit: 12,
  moneylion: 10,
  dailypay: 8,
  empower: 8,
  albert: 7,
  cleo: 7,
  floatme: 5,
  'super-com': 4,
  klover: 4,
}

export function appForClaim(plan: SeedPlan, k: number): string {
  const { hotApp } = plan
  if (hotApp && unit(k, 14) < plan.hotShare) return hotApp
  const others = plan.apps.filter((app) => app !== hotApp)
  const weights = others.map((app) => APP_WEIGHTS[app] ?? 5)
  let left = unit(k, 15) * weights.reduce((sum, weight) => sum + weight, 0)
  for (const [index, app] of others.entries()) {
    left -= weights[index]!
    if (left < 0) return app
  }
  return others.at(-1)!
}

/** Where the few seeded screenshot files live; claims point at them in turn. */
export function seedScreenshotKey(app: string, k: number): string {
  return `${app}-screenshots/seed-${k % 3}.png`
}

export function claimRow({
  id,
  app,
  k,
  claimant,
  createdAt,
}: {
  id: number
  app: string
  k: number
  claimant: Claimant
  createdAt: string
}): Insertable<ClaimsTable> & { id: number } {
  const { cashAdvanceCount, membershipMonths } = claimCounts(k)
  return {
    id,
    app,
    created_at: createdAt,
    first_name: claimant.firstName,
    last_name: claimant.lastName,
    email: claimant.email,
    phone_number: claimant.phoneNumber,
    cash_advance_count: cashAdvanceCount,
    membership_months: membershipMonths,
    screenshot_key: seedScreenshotKey(app, k),
    screenshot_type: 'image/png',
  }
}

/** The signed record as the product writes it: the real template rendered with this claimant. */
export function agreementRow({
  claimId,
  k,
  config,
  templates,
  claimant,
  signedAt,
  signature,
}: {
  claimId: number
  k: number
  config: FormConfig
  templates: AgreementTemplates
  claimant: Claimant
  signedAt: string
  signature: string
}): Insertable<AgreementRecordsTable> {
  const context = agreementContext({
    app: config,
    answers: { ...claimant, signature },
    date: signedAt.slice(0, 10),
  })
  const html = templates.render(config.agreement.template, context)
  return {
    claim_id: claimId,
    template: config.agreement.template,
    template_version: templates.version,
    html,
    sha256: crypto.createHash('sha256').update(html, 'utf8').digest('hex'),
    signature,
    signed_at: signedAt,
    ip_address: `203.0.113.${k % 254}`,
    user_agent: USER_AGENTS[k % USER_AGENTS.length]!,
    consent_text: config.agreement.consent,
  }
}

const FEE_TYPES = ['Subscription Fee', 'Instant Transfer Fee', 'Tips']

export interface IntakeTexts {
  consentVersion: string
  consentText: string
  communicationsConsentText: string
}

/** A main-form intake (form_submissions) and its cases, one per chosen app. */
export function intakeRows({
  id,
  k,
  apps,
  claimant,
  createdAt,
  signature,
  texts,
}: {
  id: number
  k: number
  apps: string[]
  claimant: Claimant
  createdAt: string
  signature: string
  texts: IntakeTexts
}): { intake: Insertable<FormSubmissionsTable> & { id: number }; cases: Insertable<IntakeCasesTable>[] } {
  const fees = FEE_TYPES.filter((_, index) => unit(k, 30 + index) < 0.55)
  const shared = {
    created_at: createdAt,
    first_name: claimant.firstName,
    last_name: claimant.lastName,
    email: claimant.email,
    phone: claimant.phoneNumber,
    address: `${100 + Math.floor(unit(k, 33) * 9800)} ${STREET_NAMES[k % STREET_NAMES.length]}`,
    address_line_2: unit(k, 34) < 0.2 ? `Apt ${1 + (k % 40)}` : '',
    city: CITIES[k % CITIES.length]!,
    state: US_STATES[Math.floor(unit(k, 35) * US_STATES.length)]!,
    zip_code: String(10000 + Math.floor(unit(k, 36) * 89999)),
    fees_incurred: JSON.stringify(fees.length > 0 ? fees : ['Subscription Fee']),
    is_over_18: 1,
    is_active_military: unit(k, 37) < 0.04 ? 1 : 0,
    has_bankruptcy: unit(k, 38) < 0.07 ? 1 : 0,
    signature,
    consent_agreed: 1,
  }
  return {
    intake: {
      id,
      ...shared,
      cash_advance_apps: JSON.stringify(apps),
      communications_consent: unit(k, 39) < 0.9 ? 1 : 0,
      consent_version: texts.consentVersion,
      consent_text: texts.consentText,
      communications_consent_text: texts.communicationsConsentText,
    },
    cases: apps.map((app) => ({ original_submission_id: id, app, ...shared })),
  }
}
