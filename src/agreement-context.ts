import { FIRM_SETTINGS, type FirmSettings } from './firm-settings.ts'
import { formatPhone } from './phone.ts'

/** What every agreement template may refer to (Handlebars strict mode refuses anything else). */
export interface AgreementContext {
  /** firm.json, with the licenses already joined ('California and Nevada'). */
  firm: Omit<FirmSettings, 'attorneyLicenses'> & { attorneyLicenses: string }
  app: { displayName: string; slug: string }
  client: { firstName: string; lastName: string; fullName: string; email: string; phone: string }
  signature: string
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
}: {
  app: { displayName: string; slug: string }
  answers: AgreementAnswers
  /** The calendar date of signing, YYYY-MM-DD. */
  date: string
}): AgreementContext {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  const firstName = text(answers.firstName)
  const lastName = text(answers.lastName)
  const signature = text(answers.signature)
  return {
    firm: { ...FIRM_SETTINGS, attorneyLicenses: joinWithAnd(FIRM_SETTINGS.attorneyLicenses) },
    app: { displayName: app.displayName, slug: app.slug },
    client: {
      firstName,
      lastName,
      fullName: [firstName, lastName].filter(Boolean).join(' '),
      email: text(answers.email),
      phone: formatPhone(text(answers.phoneNumber)),
    },
    signature: signature.startsWith('data:image/png;base64,') ? signature : '',
    date: longDate(date),
  }
}

/**
 * A YYYY-MM-DD calendar date in words, the same in every time zone.
 * @example longDate('2026-11-22') // 'November 22, 2026'
 */
export function longDate(isoDate: string): string {
  // the claims of one day share their date: formatting it once is enough
  if (isoDate !== lastDate.iso) {
    const [year, month, day] = isoDate.split('-').map(Number)
    lastDate = {
      iso: isoDate,
      words: LONG_DATE.format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1))),
    }
  }
  return lastDate.words
}

let lastDate: { iso?: string; words: string } = { words: '' }

// made once: a formatter is costly to build, and the server renders an agreement for every claim
const LONG_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
})

/**
 * Today's calendar date where the claimant is, YYYY-MM-DD.
 * @example localIsoDate(new Date(2026, 10, 22)) // '2026-11-22'
 */
export function localIsoDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
