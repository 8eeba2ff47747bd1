import { FIRM_SETTINGS, type FirmSettings } from './firm-settings.ts'
import { formatPhone } from './phone.ts'
import type { Locale } from './translate.ts'

/** What every agreement template may refer to (Handlebars strict mode refuses anything else). */
export interface AgreementContext {
  /** firm.json, with the licenses already joined ('California and Nevada'). */
  firm: Omit<FirmSettings, 'attorneyLicenses'> & { attorneyLicenses: string }
  /**
   * isSeveral: the main form's agreement names more than one app ("the Earnin and Chime apps");
   * isNoneChosen: none is chosen yet, and displayName is the page's words for the apps to come.
   */
  app: { displayName: string; slug: string; isSeveral: boolean; isNoneChosen: boolean }
  client: { firstName: string; lastName: string; fullName: string; email: string; phone: string }
  signature: string
  /** When the signature was adopted from the main form: that form's signing date in words, else ''. */
  signatureAdoptedOn: string
  date: string
}

/** The claimant's answers as the form holds them; anything may still be missing while they type. */
export interface AgreementAnswers {
  firstName?: unknown
  lastName?: unknown
  email?: unknown
  phoneNumber?: unknown
  signature?: unknown
}

/**
 * Builds the template context the same way in the browser (live fill-in) and on the server (the
 * signed record), so both render the same words.
 * @example agreementContext({ app, answers: { firstName: ' Ana ' }, date: '2026-11-22' }).client.firstName // 'Ana'
 */
export function agreementContext({
  app,
  answers,
  date,
  locale = 'en',
  adoptedOn,
}: {
  /** A Step 2 app's config, or the main form's chosen apps (intakeAgreementApp). */
  app: { displayName: string; slug: string; isSeveral?: boolean; isNoneChosen?: boolean }
  answers: AgreementAnswers
  /** The calendar date of signing, YYYY-MM-DD. */
  date: string
  /** The agreement's language: the date and the list of licenses are written in it. */
  locale?: Locale
  /** The main form's signing date (YYYY-MM-DD) when its signature was adopted. */
  adoptedOn?: string | undefined
}): AgreementContext {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  const firstName = text(answers.firstName)
  const lastName = text(answers.lastName)
  const signature = text(answers.signature)
  return {
    firm: { ...FIRM_SETTINGS, attorneyLicenses: joinWithAnd(FIRM_SETTINGS.attorneyLicenses, locale) },
    app: {
      displayName: app.displayName,
      slug: app.slug,
      isSeveral: app.isSeveral ?? false,
      isNoneChosen: app.isNoneChosen ?? false,
    },
    client: {
      firstName,
      lastName,
      fullName: [firstName, lastName].filter(Boolean).join(' '),
      email: text(answers.email),
      phone: formatPhone(text(answers.phoneNumber)),
    },
    signature: signature.startsWith('data:image/png;base64,') ? signature : '',
    signatureAdoptedOn: adoptedOn ? longDate(adoptedOn, locale) : '',
    date: longDate(date, locale),
  }
}

/**
 * A YYYY-MM-DD calendar date in words, the same in every time zone.
 * @example longDate('2026-11-22') // 'November 22, 2026'; longDate('2026-11-22', 'es') // '22 de noviembre de 2026'
 */
export function longDate(isoDate: string, locale: Locale = 'en'): string {
  const last = lastDate[locale]
  // the claims of one day share their date: formatting it once is enough
  if (isoDate === last.iso) return last.words
  const [year, month, day] = isoDate.split('-').map(Number)
  const words = LONG_DATE[locale].format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)))
  lastDate[locale] = { iso: isoDate, words }
  return words
}

const lastDate: Record<Locale, { iso?: string; words: string }> = { en: { words: '' }, es: { words: '' } }

// made once: a formatter is costly to build, and the server renders an agreement for every claim
const LONG_DATE_OPTIONS = { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' } as const
const LONG_DATE: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-US', LONG_DATE_OPTIONS),
  es: new Intl.DateTimeFormat('es-US', LONG_DATE_OPTIONS),
}

/**
 * Today's calendar date where the claimant is, YYYY-MM-DD.
 * @example localIsoDate(new Date(2026, 10, 22)) // '2026-11-22'
 */
export function localIsoDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/**
 * A list in words, in the language given.
 * @example joinWithAnd(['Earnin', 'Chime', 'Dave'], 'es') // 'Earnin, Chime y Dave'
 */
export function joinWithAnd(items: readonly string[], locale: Locale): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} ${locale === 'es' ? 'y' : 'and'} ${items.at(-1)}`
}
