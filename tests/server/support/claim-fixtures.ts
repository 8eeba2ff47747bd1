import { makePng } from '../../../scripts/seed/png.ts'

/** Pure fixtures (no server imports), so the src/ unit tests can use them too. */

export { makePng }

/** A PNG data URL like the signature pad produces. */
export function pngDataUrl(png: Buffer = makePng({ width: 4, height: 2 })): string {
  return `data:image/png;base64,${png.toString('base64')}`
}

/**
 * A valid Step 2 claim as the client sends it in the `data` field (the screenshot travels as a file).
 * A key overridden with `undefined` is left out, as JSON.stringify would.
 * @example makeClaimData({ email: undefined }) // no email at all
 */
export function makeClaimData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane.doe@example.com',
    phoneNumber: '(555) 223-4567',
    cashAdvanceCount: 3,
    membershipMonths: 12,
    signature: pngDataUrl(),
    ...overrides,
  }
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key]
  return data
}

/** A claims row as the server stores it (no file on disk), for tests that write rows directly. */
export function claimRow(phone: string, lastName = 'Okafor') {
  return {
    app: 'brigit',
    created_at: new Date().toISOString(),
    first_name: 'Ada',
    last_name: lastName,
    email: `ada.${phone.replace(/\D/g, '')}@example.com`,
    phone_number: phone,
    cash_advance_count: 3,
    membership_months: 4,
    screenshot_key: `brigit-screenshots/${phone.replace(/\D/g, '')}.png`,
    screenshot_type: 'image/png',
    // no file is stored for a fixture row
    screenshot_sha256: '',
    locale: 'en',
    intake_id: null,
    intake_by_link: 0,
    source: '(none)',
    attribution: null,
    signals: null,
  }
}
