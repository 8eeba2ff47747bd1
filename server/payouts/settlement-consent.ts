import type { Kysely, Selectable, Transaction } from 'kysely'
import { formatCents } from '../../src/money.ts'
import type { Locale } from '../../src/translate.ts'
import type { Database, SettlementConsentsTable, SettlementsTable } from '../db/database.ts'
import { canonicalJson } from '../evidence/canonical-json.ts'
import { appendToLedger } from '../evidence/ledger.ts'
import { escapeHtml } from '../platform/firm-mail.ts'
import type { SignerInfo } from '../platform/signer.ts'
import { sha256Hex } from '../platform/token-hash.ts'
import { payoutTranslator } from './payout-texts.ts'

/** What the disclosure says of a settlement: its terms, and how its claimants share it. */
export interface SettlementFacts {
  settlement: Pick<Selectable<SettlementsTable>, 'id' | 'name' | 'total_cents' | 'rule'>
  claimants: number
  smallestCents: number
  largestCents: number
  /** This claimant's gross share. */
  shareCents: number
}

/** The facts of the settlement a claim's award comes from, read now. */
export async function readSettlementFacts(
  db: Kysely<Database>,
  { settlementId, claimId }: { settlementId: number; claimId: number },
): Promise<SettlementFacts> {
  const [settlement, shares] = await Promise.all([
    db
      .selectFrom('settlements')
      .select(['id', 'name', 'total_cents', 'rule'])
      .where('id', '=', settlementId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('claim_awards')
      .select(['claim_id', 'gross_cents'])
      .where('settlement_id', '=', settlementId)
      .execute(),
  ])
  const cents = shares.map((share) => Number(share.gross_cents))
  const own = shares.find((share) => Number(share.claim_id) === claimId)
  return {
    settlement: { ...settlement, id: Number(settlement.id), total_cents: Number(settlement.total_cents) },
    claimants: shares.length,
    smallestCents: Math.min(...cents),
    largestCents: Math.max(...cents),
    shareCents: Number(own?.gross_cents ?? 0),
  }
}

/**
 * The Rule 1.8(g) disclosure a claimant signs before an aggregate settlement is shared out: the
 * settlement, its total, the sharing rule in words, how many claimants share it and the range of their
 * shares (each other person's participation, without naming anyone), and this claimant's own share.
 * Made on the server, so what is stored and hashed is exactly what the page showed.
 */
export function renderConsentDisclosure(facts: SettlementFacts, locale: Locale): string {
  const t = payoutTranslator(locale)
  const money = (cents: number) => formatCents(cents, locale)
  const paragraphs = [
    t(
      'The firm settled the claims of {claimants} clients together in one settlement, “{name}”, for a total of {total}.',
      { claimants: facts.claimants, name: facts.settlement.name, total: money(facts.settlement.total_cents) },
    ),
    facts.settlement.rule === 'equal'
      ? t('The total is shared in equal parts: every client in the settlement receives the same share.')
      : t(
          'The total is shared by the number of cash advances each client took: a client with more cash advances receives a larger share.',
        ),
    t('The shares go from {smallest} to {largest}.', {
      smallest: money(facts.smallestCents),
      largest: money(facts.largestCents),
    }),
    t(
      "Your share is {share}. The firm's fee and any case costs are taken from it as your signed agreement says.",
      { share: money(facts.shareCents) },
    ),
    t(
      'Rule 1.8(g) of the Rules of Professional Conduct says a lawyer who represents several clients may settle their claims together only if each client agrees in writing, after being told the total and what each client receives.',
    ),
    t(
      'By signing, you agree to this settlement and to how it is shared. You do not have to sign now: ask us any question first.',
    ),
  ]
  const heading = t('Consent to the settlement “{name}”', { name: facts.settlement.name })
  return `<h3>${escapeHtml(heading)}</h3>\n${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}`
}

/** The ledger's subject of a claim's settlement consent (one per claim). */
export function consentSubject(claimId: number): string {
  return `consent:${claimId}`
}

/** A consent as sealed: every column, canonical, so anyone can recompute its seal from the row. */
export function consentSeal(row: Selectable<SettlementConsentsTable>): string {
  return sha256Hex(
    canonicalJson({
      claimId: Number(row.claim_id),
      settlementId: Number(row.settlement_id),
      html: row.html,
      sha256: row.sha256,
      signatureMethod: row.signature_method,
      signature: row.signature,
      locale: row.locale,
      signedAt: Number(row.signed_at),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
    }),
  )
}

/**
 * Stores the disclosure as shown, its SHA-256 and the signature, and seals it on the evidence chain
 * (kind 'consent', subject consent:<claim id>) in the caller's transaction: one seal per consent, since
 * a consent once given is kept (the row's primary key is the claim). verify-evidence.ts checks it.
 */
export async function recordConsent(
  trx: Transaction<Database>,
  {
    evidenceKey,
    claimId,
    settlementId,
    html,
    signing,
    locale,
    signer,
    now,
  }: {
    evidenceKey: Buffer
    claimId: number
    settlementId: number
    html: string
    signing: { method: 'drawn' | 'typed'; signature: string }
    locale: Locale
    signer: SignerInfo
    now: number
  },
): Promise<void> {
  const row = await trx
    .insertInto('settlement_consents')
    .values({
      claim_id: claimId,
      settlement_id: settlementId,
      html,
      sha256: sha256Hex(html),
      signature_method: signing.method,
      signature: signing.signature,
      locale,
      signed_at: now,
      ip_address: signer.ipAddress,
      user_agent: signer.userAgent,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await appendToLedger(trx, evidenceKey, [
    {
      kind: 'consent',
      subject: consentSubject(claimId),
      seal: consentSeal(row),
      detail: { settlementId },
    },
  ])
}
