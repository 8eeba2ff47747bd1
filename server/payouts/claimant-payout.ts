import type { Kysely, Selectable } from 'kysely'
import type { ClaimantPayout, PayoutAmounts, ShownPayoutChoice } from '../../src/api/claimant-payouts.ts'
import { mask, maskEmail } from '../../src/payout-details.ts'
import type { Locale } from '../../src/translate.ts'
import type { Database, PayoutChoicesTable } from '../db/database.ts'
import type { SignedAgreementRow } from '../agreements/agreement-record.repository.ts'
import { readBatchClaims } from '../filing/batch-claims.ts'
import { readFeeTerms } from './fee-terms.ts'
import { splitPayout } from './payout-split.ts'
import { readSettlementFacts, renderConsentDisclosure } from './settlement-consent.ts'

/**
 * What the claimant's page shows of each of their claims with an award (a claim_awards row): the award
 * and its split (the batch's figures once a batch took the claim, else an estimate from the fee in the
 * signed agreement, the costs advanced on the claim so far, and backup withholding while no W-9 is on
 * file), the settlement
 * consent to sign when the award is a settlement's share, the payment choice and the W-9 with every
 * number masked, and whether they can still change.
 */
export async function readClaimantPayouts({
  db,
  claims,
  appNames,
  locale,
}: {
  db: Kysely<Database>
  /** The claimant's own signed claims (findOwnAgreements): nobody else's is ever read here. */
  claims: readonly SignedAgreementRow[]
  appNames: (app: string) => string
  locale: Locale
}): Promise<ClaimantPayout[]> {
  const ids = claims.map((claim) => claim.claimId)
  if (ids.length === 0) return []
  const awards = await db
    .selectFrom('claim_awards')
    .select(['claim_id', 'gross_cents', 'costs_cents', 'settlement_id'])
    .where('claim_id', 'in', ids)
    .execute()
  if (awards.length === 0) return []
  const awarded = awards.map((award) => Number(award.claim_id))
  const [consents, choices, taxForms, items] = await Promise.all([
    db
      .selectFrom('settlement_consents')
      .select(['claim_id', 'signed_at'])
      .where('claim_id', 'in', awarded)
      .execute(),
    db.selectFrom('payout_choices').selectAll().where('claim_id', 'in', awarded).execute(),
    db
      .selectFrom('tax_forms')
      .select(['claim_id', 'legal_name', 'tin_type', 'tin_last4', 'certified_at'])
      .where('claim_id', 'in', awarded)
      .execute(),
    db
      .selectFrom('payout_items')
      .selectAll()
      .where('claim_id', 'in', awarded)
      .orderBy('id', 'desc')
      .execute(),
  ])
  const byClaim = <Row extends { claim_id: number }>(rows: Row[]) =>
    new Map(rows.map((row) => [Number(row.claim_id), row]))
  const consentOf = byClaim(consents)
  const choiceOf = byClaim(choices)
  const taxFormOf = byClaim(taxForms)
  // newest first: the first row seen of a claim is its latest item (a fallback replaces a failed one)
  const itemOf = new Map<number, (typeof items)[number]>()
  for (const item of items) if (!itemOf.has(Number(item.claim_id))) itemOf.set(Number(item.claim_id), item)
  const addresses = await checkAddresses(
    db,
    claims.filter((claim) => awarded.includes(claim.claimId)),
  )

  const payouts = await Promise.all(
    awards.map(async (award): Promise<ClaimantPayout> => {
      const claimId = Number(award.claim_id)
      const claim = claims.find((candidate) => candidate.claimId === claimId)!
      const taxForm = taxFormOf.get(claimId)
      const choice = choiceOf.get(claimId)
      const item = itemOf.get(claimId)
      const amounts: PayoutAmounts | undefined = item
        ? {
            grossCents: Number(item.gross_cents),
            feePercent: item.fee_percent,
            feeCents: Number(item.fee_cents),
            costsCents: Number(item.costs_cents),
            claimCostsCents: Number(item.claim_costs_cents),
            sharedCostsCents: Number(item.batch_costs_cents),
            costsWaivedCents: Math.max(
              0,
              Number(item.claim_costs_cents) + Number(item.batch_costs_cents) - Number(item.costs_cents),
            ),
            isBackupWithholding: Number(item.withholding_cents) > 0,
            withholdingCents: Number(item.withholding_cents),
            netCents: Number(item.net_cents),
            isEstimate: false,
          }
        : estimate({
            claim,
            grossCents: Number(award.gross_cents),
            claimCostsCents: Number(award.costs_cents),
            isBackupWithholding: taxForm === undefined,
          })
      const address = addresses.get(claimId)
      return {
        claimId,
        appName: appNames(claim.app),
        ...(amounts ? { amounts } : {}),
        ...(award.settlement_id === null
          ? {}
          : {
              consent: await consentToShow({
                db,
                claimId,
                settlementId: Number(award.settlement_id),
                signedAt: consentOf.get(claimId)?.signed_at,
                locale,
              }),
            }),
        ...(choice ? { choice: shownChoice(choice) } : {}),
        ...(address ? { checkAddress: address } : {}),
        ...(taxForm
          ? {
              w9: {
                legalName: taxForm.legal_name,
                tinType: taxForm.tin_type,
                tin: `••••${taxForm.tin_last4}`,
                certifiedAt: new Date(Number(taxForm.certified_at)).toISOString(),
              },
            }
          : {}),
        canChange: item === undefined,
      }
    }),
  )
  return payouts.sort((a, b) => a.claimId - b.claimId)
}

/** The settlement's disclosure in the page's language, and when the claimant signed it, if they did. */
async function consentToShow({
  db,
  claimId,
  settlementId,
  signedAt,
  locale,
}: {
  db: Kysely<Database>
  claimId: number
  settlementId: number
  signedAt: number | undefined
  locale: Locale
}): Promise<NonNullable<ClaimantPayout['consent']>> {
  const facts = await readSettlementFacts(db, { settlementId, claimId })
  return {
    settlementName: facts.settlement.name,
    disclosureHtml: renderConsentDisclosure(facts, locale),
    ...(signedAt === undefined ? {} : { signedAt: new Date(Number(signedAt)).toISOString() }),
  }
}

/**
 * The split before a batch: the fee the signed agreement states and the costs advanced on the claim
 * so far; a batch's shared costs are not known yet. An agreement whose fee cannot be read gives no
 * estimate rather than a guessed one.
 */
function estimate({
  claim,
  grossCents,
  claimCostsCents,
  isBackupWithholding,
}: {
  claim: SignedAgreementRow
  grossCents: number
  claimCostsCents: number
  isBackupWithholding: boolean
}): PayoutAmounts | undefined {
  let percent: string
  try {
    percent = readFeeTerms({ html: claim.html, claimId: claim.claimId }).percent
  } catch {
    return undefined
  }
  const split = splitPayout({
    grossCents,
    fee: { percent },
    costsCents: claimCostsCents,
    claimCostsCents,
    isBackupWithholding,
  })
  return {
    grossCents: split.grossCents,
    feePercent: split.feePercent,
    feeCents: split.feeCents,
    costsCents: split.costsCents,
    claimCostsCents: split.claimCostsCents,
    sharedCostsCents: split.batchCostsCents,
    costsWaivedCents: split.costsWaivedCents,
    isBackupWithholding: split.isBackupWithholding,
    withholdingCents: split.withholdingCents,
    netCents: split.netCents,
    isEstimate: true,
  }
}

/** A stored choice as the claimant sees it back: the wallet's address or phone and the account masked. */
export function shownChoice(row: Selectable<PayoutChoicesTable>): ShownPayoutChoice {
  if (row.method === 'paypal' || row.method === 'venmo') {
    const receiverType = row.receiver_type === 'phone' ? 'phone' : 'email'
    const receiver = row.receiver ?? ''
    return {
      method: row.method,
      receiverType,
      receiver: receiverType === 'email' ? maskEmail(receiver) : mask(receiver),
    }
  }
  if (row.method === 'ach') {
    return {
      method: 'ach',
      routingNumber: row.routing_number ?? '',
      account: `••••${row.account_last4 ?? ''}`,
      accountType: row.account_type === 'savings' ? 'savings' : 'checking',
    }
  }
  return { method: 'check' }
}

/**
 * Each claim's mailing address for a check, one line, when the claimant confirmed it the way a filing
 * batch requires (batch-claims.ts: the intake confirmed from their e-mail, or the claim came by its
 * Step 2 link); absent otherwise.
 */
export async function checkAddresses(
  db: Kysely<Database>,
  claims: readonly Pick<SignedAgreementRow, 'claimId' | 'app'>[],
): Promise<Map<number, string>> {
  const apps = [...new Set(claims.map((claim) => claim.app))]
  const rows = (
    await Promise.all(
      apps.map((app) =>
        readBatchClaims(db, app, {
          ids: claims.filter((claim) => claim.app === app).map((claim) => claim.claimId),
        }),
      ),
    )
  ).flat()
  const addresses = new Map<number, string>()
  for (const row of rows) {
    const address = row.address
    if (!address || address.street.trim() === '') continue
    const line = [
      address.street,
      address.addressLine2,
      address.city,
      `${address.state} ${address.zip}`.trim(),
    ]
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join(', ')
    addresses.set(row.claimId, line)
  }
  return addresses
}
