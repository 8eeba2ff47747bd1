import { Writable } from 'node:stream'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaimantPayout } from '../../../src/api/claimant-payouts.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { createLogger } from '../../../server/logger.ts'
import { consentSeal } from '../../../server/payouts/settlement-consent.ts'
import { openNumber, sealNumber } from '../../../server/payouts/sealed-numbers.ts'
import { taxFormSeal } from '../../../server/payouts/tax-form-seal.ts'
import { sha256Hex } from '../../../server/platform/token-hash.ts'
import { ANA, ANA_CONTACT, openAgreementsByLink } from '../support/agreement-link.ts'
import { fileClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { addPayoutItem, addSettlement, giveAward } from '../support/payout-claims.ts'

const BEN = {
  firstName: 'Ben',
  lastName: 'Okoro',
  email: 'ben.okoro@example.com',
  phoneNumber: '(555) 223-9876',
}
const BEN_CONTACT = { email: BEN.email, phone: BEN.phoneNumber }
const W9 = {
  legalName: 'Ana Lopez',
  tinType: 'ssn',
  tin: '123-45-6789',
  addressLine1: '12 Main St',
  city: 'Phoenix',
  state: 'AZ',
  zip: '85001',
  isCertified: true,
  signatureMethod: 'typed',
  typedSignature: 'Ana Lopez',
}

describe.each(DIALECTS)('%s: the claimant chooses how an award is paid', (dialect) => {
  let ctx: TestContext
  const logLines: string[] = []
  let anaClaim: number
  let anaSettled: number
  let anaNoFee: number
  let benClaim: number
  let anaKey: string
  let benKey: string
  const post = (path: string, body: Record<string, unknown>, lang?: string) =>
    request(ctx.app)
      .post(path)
      .query(lang ? { lang } : {})
      .send(body)

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk))
        done()
      },
    })
    ctx = await createTestContext(dialect, { logger: createLogger('debug', sink) })
    // Brigit's and Cleo's agreements state the fee; Earnin's (sections 1 and 2 only) does not
    anaClaim = (await fileClaim(ctx, { app: 'brigit', fields: ANA })).id
    anaSettled = (await fileClaim(ctx, { app: 'cleo', fields: ANA })).id
    anaNoFee = (await fileClaim(ctx, { app: 'earnin', fields: ANA })).id
    benClaim = (await fileClaim(ctx, { app: 'brigit', fields: BEN })).id
    await giveAward(ctx.db, { claimId: anaClaim, app: 'brigit', grossCents: 100_000 })
    await giveAward(ctx.db, { claimId: anaNoFee, app: 'earnin', grossCents: 10_000 })
    await giveAward(ctx.db, { claimId: benClaim, app: 'brigit', grossCents: 50_000, costsCents: 2_500 })
    await addSettlement(ctx.db, {
      app: 'cleo',
      name: 'Cleo fee settlement',
      shares: [{ claimId: anaSettled, grossCents: 25_000 }],
    })
    anaKey = (await openAgreementsByLink(ctx, ANA_CONTACT)).downloadKey
    benKey = (await openAgreementsByLink(ctx, BEN_CONTACT)).downloadKey
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const payoutOf = async (key: string, claimId: number): Promise<ClaimantPayout | undefined> => {
    const res = await post('/api/payouts/own', { key })
    expect(res.status).toBe(200)
    return (res.body.payouts as ClaimantPayout[]).find((payout) => payout.claimId === claimId)
  }

  it('shows the award split by the fee of the signed agreement, withholding 24% while no W-9 is on file', async () => {
    const payout = (await payoutOf(anaKey, anaClaim))!
    expect(payout.amounts).toEqual({
      grossCents: 100_000,
      feePercent: '40',
      feeCents: 40_000,
      costsCents: 0,
      claimCostsCents: 0,
      sharedCostsCents: 0,
      costsWaivedCents: 0,
      isBackupWithholding: true,
      withholdingCents: 14_400,
      netCents: 45_600,
      isEstimate: true,
    })
    expect(payout.canChange).toBe(true)
    expect(payout.consent).toBeUndefined()
  })

  it('gives no estimate for an agreement that states no fee, rather than a guessed one', async () => {
    const payout = (await payoutOf(anaKey, anaNoFee))!
    expect(payout.appName).toBe('Earnin')
    expect(payout.amounts).toBeUndefined()
  })

  it('takes Venmo by phone and shows it masked, then a change to PayPal by e-mail', async () => {
    const venmo = await post('/api/payouts/choice', {
      key: anaKey,
      claimId: anaClaim,
      method: 'venmo',
      phone: '(702) 555-0199',
    })
    expect(venmo.status).toBe(200)
    expect(venmo.body.payout.choice).toEqual({ method: 'venmo', receiverType: 'phone', receiver: '••••0199' })
    const paypal = await post('/api/payouts/choice', {
      key: anaKey,
      claimId: anaClaim,
      method: 'paypal',
      email: 'Ana.Lopez@Example.com',
    })
    expect(paypal.body.payout.choice).toEqual({
      method: 'paypal',
      receiverType: 'email',
      receiver: 'a••••@example.com',
    })
    const row = await ctx.db
      .selectFrom('payout_choices')
      .selectAll()
      .where('claim_id', '=', anaClaim)
      .executeTakeFirstOrThrow()
    expect([row.method, row.receiver, row.receiver_type]).toEqual([
      'paypal',
      'ana.lopez@example.com',
      'email',
    ])
    // each choice on the sealed audit log, by its method only
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['actor', 'detail'])
      .where('action', '=', 'payout_choice_saved')
      .orderBy('id')
      .execute()
    expect(audit.slice(-2)).toEqual([
      { actor: 'claimant', detail: `claim ${anaClaim}: paid by venmo` },
      { actor: 'claimant', detail: `claim ${anaClaim}: paid by paypal` },
    ])
  })

  it('refuses a bank transfer with a routing number whose check digit is wrong, under its field', async () => {
    const res = await post('/api/payouts/choice', {
      key: anaKey,
      claimId: anaClaim,
      method: 'ach',
      routingNumber: '021000022',
      accountNumber: '000123456789',
      accountType: 'checking',
    })
    expect(res.status).toBe(422)
    expect(res.body.error.fields).toEqual({
      routingNumber: {
        __errors: [
          'This is not a valid routing number. Please copy it again from a check or from your bank.',
        ],
      },
    })
    const spanish = await post('/api/payouts/choice', { key: anaKey, claimId: anaClaim, method: 'ach' }, 'es')
    expect(spanish.body.error.fields.accountType.__errors).toEqual([
      'Elija cuenta de cheques o cuenta de ahorros.',
    ])
  })

  it('seals the bank account number and shows only its last digits', async () => {
    const res = await post('/api/payouts/choice', {
      key: anaKey,
      claimId: anaClaim,
      method: 'ach',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountType: 'savings',
    })
    expect(res.status).toBe(200)
    expect(res.body.payout.choice).toEqual({
      method: 'ach',
      routingNumber: '021000021',
      account: '••••6789',
      accountType: 'savings',
    })
    const row = await ctx.db
      .selectFrom('payout_choices')
      .selectAll()
      .where('claim_id', '=', anaClaim)
      .executeTakeFirstOrThrow()
    expect(row.account_sealed).not.toContain('123456789')
    expect(openNumber({ key: ctx.paymentsKey, sealed: row.account_sealed!, purpose: 'accountNumber' })).toBe(
      '000123456789',
    )
  })

  it('refuses a paper check while no mailing address is confirmed', async () => {
    const res = await post('/api/payouts/choice', { key: anaKey, claimId: anaClaim, method: 'check' })
    expect(res.status).toBe(422)
    expect(res.body.error.fields.method.__errors[0]).toMatch(/no confirmed mailing address/)
  })

  it('refuses a W-9 with an SSN that cannot have been issued, under its field', async () => {
    const res = await post('/api/payouts/w9', { ...W9, key: anaKey, claimId: anaClaim, tin: '666-12-3456' })
    expect(res.status).toBe(422)
    expect(res.body.error.fields).toEqual({
      tin: { __errors: ['This is not a valid Social Security number. Please check it.'] },
    })
  })

  it('refuses a W-9 whose certification is not ticked or that is not signed', async () => {
    const res = await post('/api/payouts/w9', {
      ...W9,
      key: anaKey,
      claimId: anaClaim,
      isCertified: false,
      typedSignature: ' ',
    })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['isCertified', 'typedSignature'])
  })

  it('stores the W-9 with its SSN sealed, shows it masked, ends the withholding and logs no number', async () => {
    const before = logLines.length
    const res = await post('/api/payouts/w9', { ...W9, key: anaKey, claimId: anaClaim })
    expect(res.status).toBe(200)
    expect(res.body.payout.w9).toMatchObject({ legalName: 'Ana Lopez', tinType: 'ssn', tin: '••••6789' })
    expect(res.body.payout.amounts).toMatchObject({
      isBackupWithholding: false,
      withholdingCents: 0,
      netCents: 60_000,
    })
    expect(JSON.stringify(res.body)).not.toContain('123-45-6789')
    const row = await ctx.db
      .selectFrom('tax_forms')
      .selectAll()
      .where('claim_id', '=', anaClaim)
      .executeTakeFirstOrThrow()
    expect(row.tin_sealed).not.toContain('123-45-6789')
    expect(row.tin_sealed).not.toContain('123456789')
    expect(row.tin_last4).toBe('6789')
    expect([row.signature_method, row.signature]).toEqual(['typed', 'Ana Lopez'])
    expect(openNumber({ key: ctx.paymentsKey, sealed: row.tin_sealed, purpose: 'tin' })).toBe('123-45-6789')
    const logged = logLines.slice(before).join('')
    expect(logged).toContain('/api/payouts/w9')
    expect(logged).not.toMatch(/123-?45-?6789|6789/)
    const [audit] = await ctx.db
      .selectFrom('audit_log')
      .select(['actor', 'detail'])
      .where('action', '=', 'tax_form_filed')
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
    expect(audit).toEqual({ actor: 'claimant', detail: `claim ${anaClaim}: W-9 certified (SSN)` })
  })

  it('seals each signed W-9 on the evidence chain without its number, and verify-evidence names one changed after', async () => {
    const sealsOf = () =>
      ctx.db
        .selectFrom('evidence_ledger')
        .select(['kind', 'seal', 'detail'])
        .where('subject', '=', `w9:${anaClaim}`)
        .orderBy('seq')
        .execute()
    const before = (await sealsOf()).length
    const res = await post('/api/payouts/w9', {
      ...W9,
      key: anaKey,
      claimId: anaClaim,
      legalName: 'Ana M. Lopez',
    })
    expect(res.status).toBe(200)
    const row = await ctx.db
      .selectFrom('tax_forms')
      .selectAll()
      .where('claim_id', '=', anaClaim)
      .executeTakeFirstOrThrow()
    const seals = await sealsOf()
    // one seal a signing: the W-9 filed earlier and this one that replaced it, the latest the row's
    expect(seals).toHaveLength(before + 1)
    expect(seals.at(-1)).toEqual({ kind: 'tax_form', seal: taxFormSeal(row), detail: '{"tinType":"ssn"}' })
    const ledgerText = JSON.stringify(seals)
    for (const number of ['123-45-6789', '123456789']) expect(ledgerText).not.toContain(number)

    const verify = () =>
      verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey, claimId: anaClaim })
    expect((await verify()).problems).toEqual([])
    expect((await verify()).taxForms).toBe(1)
    // the number swapped for another one sealed under the same key: it opens, but it is not the one signed
    await ctx.db
      .updateTable('tax_forms')
      .set({ tin_sealed: sealNumber({ key: ctx.paymentsKey, value: '234-56-7890', purpose: 'tin' }) })
      .where('claim_id', '=', anaClaim)
      .execute()
    expect((await verify()).problems).toEqual([
      `W-9 of claim ${anaClaim}: sealed record differs (it was changed)`,
    ])
    const whole = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
    expect(whole.problems).toContain(`W-9 of claim ${anaClaim}: sealed record differs (it was changed)`)
    await ctx.db
      .updateTable('tax_forms')
      .set({ tin_sealed: row.tin_sealed })
      .where('claim_id', '=', anaClaim)
      .execute()
    expect((await verify()).problems).toEqual([])
  })

  it('counts the costs the firm advanced on the claim in the estimate, and tells them apart', async () => {
    // 40% of $500.00, then the $25.00 advanced on the claim; 24% of the $275.00 left while no W-9
    expect((await payoutOf(benKey, benClaim))?.amounts).toEqual({
      grossCents: 50_000,
      feePercent: '40',
      feeCents: 20_000,
      costsCents: 2_500,
      claimCostsCents: 2_500,
      sharedCostsCents: 0,
      costsWaivedCents: 0,
      isBackupWithholding: true,
      withholdingCents: 6_600,
      netCents: 20_900,
      isEstimate: true,
    })
  })

  it("neither shows nor changes another claimant's claim", async () => {
    expect(await payoutOf(benKey, anaClaim)).toBeUndefined()
    expect((await payoutOf(benKey, benClaim))?.amounts?.grossCents).toBe(50_000)
    const choice = await post('/api/payouts/choice', {
      key: benKey,
      claimId: anaClaim,
      method: 'venmo',
      email: 'ben.okoro@example.com',
    })
    expect(choice.status).toBe(404)
    const w9 = await post('/api/payouts/w9', { ...W9, key: benKey, claimId: anaClaim, tin: '234-56-7890' })
    expect(w9.status).toBe(404)
    const consent = await post('/api/payouts/consent', {
      key: benKey,
      claimId: anaSettled,
      signatureMethod: 'typed',
      typedSignature: 'Ben Okoro',
    })
    expect(consent.status).toBe(404)
    const stored = await ctx.db
      .selectFrom('tax_forms')
      .select('tin_last4')
      .where('claim_id', '=', anaClaim)
      .executeTakeFirstOrThrow()
    expect(stored.tin_last4).toBe('6789')
    expect((await post('/api/payouts/own', { key: 'x'.repeat(43) })).status).toBe(410)
  })

  it('shows a settlement share with its disclosure, and stores the signed consent with its hash, sealed', async () => {
    const shown = (await payoutOf(anaKey, anaSettled))!
    expect(shown.consent?.signedAt).toBeUndefined()
    expect(shown.consent?.disclosureHtml).toContain('“Cleo fee settlement”, for a total of $250.00')
    expect(shown.consent?.disclosureHtml).toContain('Your share is $250.00')
    const res = await post('/api/payouts/consent', {
      key: anaKey,
      claimId: anaSettled,
      signatureMethod: 'typed',
      typedSignature: 'Ana Lopez',
    })
    expect(res.status).toBe(201)
    expect(res.body.payout.consent.signedAt).toEqual(expect.any(String))
    const row = await ctx.db
      .selectFrom('settlement_consents')
      .selectAll()
      .where('claim_id', '=', anaSettled)
      .executeTakeFirstOrThrow()
    expect(row.html).toBe(shown.consent!.disclosureHtml)
    expect(row.sha256).toBe(sha256Hex(row.html))
    const entry = await ctx.db
      .selectFrom('evidence_ledger')
      .selectAll()
      .where('subject', '=', `consent:${anaSettled}`)
      .executeTakeFirstOrThrow()
    expect([entry.kind, entry.seal]).toEqual(['consent', consentSeal(row)])
    const again = await post('/api/payouts/consent', {
      key: anaKey,
      claimId: anaSettled,
      signatureMethod: 'typed',
      typedSignature: 'Ana Lopez',
    })
    expect(again.status).toBe(409)
    const verify = () =>
      verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey, claimId: anaSettled })
    expect((await verify()).problems).toEqual([])
    await ctx.db
      .updateTable('settlement_consents')
      .set({ signature: 'Someone Else' })
      .where('claim_id', '=', anaSettled)
      .execute()
    expect((await verify()).problems).toEqual([
      `settlement consent of claim ${anaSettled}: sealed record differs (it was changed)`,
    ])
  })

  it('keeps the choice and the W-9 once a payout batch holds the claim', async () => {
    await addPayoutItem(ctx.db, { claimId: benClaim, app: 'brigit' })
    const payout = (await payoutOf(benKey, benClaim))!
    expect(payout.canChange).toBe(false)
    expect(payout.amounts).toMatchObject({
      costsCents: 1_000,
      claimCostsCents: 600,
      sharedCostsCents: 400,
      costsWaivedCents: 0,
      netCents: 59_000,
      isEstimate: false,
    })
    const res = await post('/api/payouts/choice', {
      key: benKey,
      claimId: benClaim,
      method: 'venmo',
      email: 'ben.okoro@example.com',
    })
    expect(res.status).toBe(409)
  })
})
