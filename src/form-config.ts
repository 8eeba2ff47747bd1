import type { RJSFSchema, UiSchema } from '@rjsf/utils'
import { translator, type Translator } from './translate.ts'

/** The fields every Step 2 claim form collects; the meta-schema requires each of them. */
export const CLAIM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'cashAdvanceCount',
  'membershipMonths',
  'screenshotFile',
  'signature',
] as const

export type ClaimField = (typeof CLAIM_FIELDS)[number]

/** A claim as the form holds it and the server receives it (the screenshot travels as a file beside it). */
export interface ClaimData {
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  cashAdvanceCount: number
  membershipMonths: number
  /** The picked file's name in the browser; the server puts the uploaded file's name here before validating. */
  screenshotFile: string
  /** A PNG data URL drawn on the signature pad. */
  signature: string
}

export interface TrackingEvent {
  event: string
  value?: number
  currency?: string
}

export interface ClosedNotice {
  heading: string
  subheading: string
  body: string
}

export type FormStatus = { state: 'open' } | { state: 'closed'; notice: ClosedNotice }

export interface DashboardColumn {
  key: string
  label: string
}

/**
 * One tenant app, read from forms/<slug>.json and checked against forms/form-config.schema.json.
 * @example config.title // { app: 'Brigit', product: 'Claim Form' } → 'Brigit Claim Form (Step 2)'
 */
export interface FormConfig {
  slug: string
  displayName: string
  /** Position in the agreement lookup's results, smaller first. */
  lookupOrder: number
  title: { app: string; product: string }
  intro: string
  screenshotPrompt: string
  submitLabel: string
  schema: RJSFSchema
  uiSchema: UiSchema
  /** agreements/<template>.hbs is what the form shows and the claimant signs; consent is stored with it. */
  agreement: { template: string; consent: string }
  dashboard: { columns: DashboardColumn[] }
  tracking: { success: TrackingEvent[] }
  success: { line: string; note?: string }
  status: FormStatus
  /**
   * The languages the form is offered in: as forms/<slug>.json names them (optional), and in the config
   * the server serves, those it is served in (English and each language whose texts are complete).
   */
  languages?: string[]
}

/**
 * The page title of a Step 2 form.
 * @example formTitle(config) // 'Brigit Claim Form (Step 2)'
 */
export function formTitle(config: Pick<FormConfig, 'title'>, t: Translator = translator(undefined)): string {
  return t('{app} {product} (Step 2)', { app: config.title.app, product: config.title.product })
}

/**
 * Whether the app takes claims; anything but an explicit 'open' counts as closed.
 * @example isFormOpen({ status: { state: 'open' } }) // true
 */
export function isFormOpen(config: Pick<FormConfig, 'status'>): boolean {
  return config.status.state === 'open' // fail-closed: any other state refuses claims
}
