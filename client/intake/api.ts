import { intakeRequest } from '../../src/api/claim-request.ts'
import { landingAttribution } from '../attribution.ts'
import { currentLocale } from '../i18n/locale.ts'
import type { IntakeConfig, IntakeData } from '../../src/intake-config.ts'
import type { FormSignals } from '../../src/form-signals.ts'
import type { CreatedIntake } from '../../src/api/claims.ts'
import type { MilitaryClaimants, MilitaryFigures } from '../../src/api/staff.ts'
import { fetchJson } from '../http.ts'
import type { Signing } from '../forms/widgets/signing.ts'

export function fetchIntakeConfig(): Promise<IntakeConfig> {
  return fetchJson<IntakeConfig>('/api/intake/config')
}

/**
 * 201 with the new id; 422 (field messages) and 409 (duplicate) arrive as AppErrors. The date the page
 * printed in the agreement travels beside the answers, so the server signs the same words; how the
 * claimant signed (`signatureMethod`, `typedSignature`) and what the form saw (`signals`) travel with
 * them, outside the config's schema.
 */
export function submitIntake({
  data,
  agreementDate,
  signing,
  headers,
  signals,
}: {
  data: Partial<IntakeData>
  agreementDate: string
  signing: Signing
  /** The proof of work (useProofOfWork). */
  headers: Record<string, string>
  /** What the form saw as it was filled in (useFormSignals). */
  signals: FormSignals
}): Promise<CreatedIntake> {
  const { path, body } = intakeRequest({
    data,
    agreementDate,
    signing,
    locale: currentLocale(),
    attribution: landingAttribution(),
    signals,
  })
  return fetchJson<CreatedIntake>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

export function fetchMilitaryStats({ signal }: { signal?: AbortSignal } = {}): Promise<MilitaryFigures> {
  return fetchJson<MilitaryFigures>('/api/staff/military', { signal, cache: 'no-store' })
}

export function fetchMilitaryClaimants({
  signal,
}: { signal?: AbortSignal } = {}): Promise<MilitaryClaimants> {
  return fetchJson<MilitaryClaimants>('/api/staff/military/claimants', { signal, cache: 'no-store' })
}
