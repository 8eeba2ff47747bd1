import { describe, expect, it } from 'vitest'
import { pdfText } from '../../tests/server/support/pdf-text.ts'
import { splitPayout } from './payout-split.ts'
import { renderPayoutStatementPdf, type PayoutStatement } from './payout-statement-pdf.ts'

const SHA256 = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

function makeStatement(overrides: Partial<PayoutStatement> = {}): PayoutStatement {
  return {
    claimantName: 'Ana López',
    appName: 'Brigit',
    claimId: 4711,
    split: splitPayout({
      grossCents: 123456,
      fee: { percent: '33.33' },
      costsCents: 5000,
      isBackupWithholding: true,
    }),
    agreement: {
      templateName: 'Attorney-Client Contingency Fee Agreement',
      templateVersion: 'contingency-fee@3',
      signedOn: '2026-11-22',
      sha256: SHA256,
    },
    payment: {
      method: 'ach',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountType: 'checking',
    },
    issuedOn: '2027-03-05',
    firmName: 'Cash Advance Claims Law Group',
    ...overrides,
  }
}

describe('renderPayoutStatementPdf', () => {
  it('states every amount of the split, the fee percent and its signed agreement, in English', async () => {
    const statement = makeStatement()
    // 33.33% of $1,234.56 is $411.478848 -> $411.48; $1,234.56 - $411.48 - $50.00 = $773.08; 24% is $185.5392 -> $185.54
    expect(statement.split).toMatchObject({ feeCents: 41148, withholdingCents: 18554, netCents: 58754 })
    const text = await pdfText(await renderPayoutStatementPdf({ statement, locale: 'en' }))
    for (const expected of [
      'Cash Advance Claims Law Group',
      'Payment statement',
      'Claimant: Ana López',
      'App: Brigit',
      'Claim ID: 4711',
      'Statement date: March 5, 2027',
      'Award (gross recovery) $1,234.56',
      'Attorney fee (33.33%) $411.48',
      'Case costs $50.00',
      'Backup withholding $185.54',
      'Net to you $587.54',
      'Attorney-Client Contingency Fee Agreement, version contingency-fee@3, signed on November 22, 2026',
      SHA256,
      'Paid by: bank transfer (ACH) to checking account ••••6789',
      'How it was computed',
      'Net to you: $1,234.56 - $411.48 - $50.00 - $185.54 = $587.54',
    ]) {
      expect(text).toContain(expected)
    }
  })

  it('is written in Spanish for a Spanish-speaking claimant, with the same amounts', async () => {
    const text = await pdfText(await renderPayoutStatementPdf({ statement: makeStatement(), locale: 'es' }))
    for (const expected of [
      'Estado de pago',
      'Reclamante: Ana López',
      'Aplicación: Brigit',
      'ID del reclamo: 4711',
      'Fecha del estado de pago: 5 de marzo de 2027',
      'Su pago',
      'Monto otorgado (recuperación bruta) $1,234.56',
      'Honorarios de abogados (33.33%) $411.48',
      'Gastos del caso $50.00',
      'Retención adicional $185.54',
      'Neto para usted $587.54',
      'versión contingency-fee@3, firmado el 22 de noviembre de 2026',
      'Forma de pago: transferencia bancaria (ACH) a la cuenta de cheques ••••6789',
      'Cómo se calculó',
      'Neto para usted: $1,234.56 - $411.48 - $50.00 - $185.54 = $587.54',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('Net to you')
  })

  it('never prints a whole account number, phone or wallet e-mail', async () => {
    const ach = await pdfText(await renderPayoutStatementPdf({ statement: makeStatement(), locale: 'en' }))
    expect(ach).not.toContain('000123456789')
    expect(ach).not.toContain('021000021')
    const paypal = await pdfText(
      await renderPayoutStatementPdf({
        statement: makeStatement({ payment: { method: 'paypal', email: 'ana.lopez@example.com' } }),
        locale: 'en',
      }),
    )
    expect(paypal).toContain('Paid by: PayPal (a••••@example.com)')
    expect(paypal).not.toContain('ana.lopez')
    const venmo = await pdfText(
      await renderPayoutStatementPdf({
        statement: makeStatement({ payment: { method: 'venmo', phone: '5592345678' } }),
        locale: 'es',
      }),
    )
    expect(venmo).toContain('Forma de pago: Venmo (••••5678)')
    expect(venmo).not.toContain('559234')
  })

  it('says a paper check goes to the claimant, and shows no withholding when none applies', async () => {
    const statement = makeStatement({
      payment: { method: 'check' },
      split: splitPayout({
        grossCents: 100000,
        fee: { percent: '40' },
        costsCents: 0,
        isBackupWithholding: false,
      }),
    })
    const text = await pdfText(await renderPayoutStatementPdf({ statement, locale: 'en' }))
    expect(text).toContain('Backup withholding $0.00')
    expect(text).toContain('Net to you $600.00')
    expect(text).toContain('Backup withholding: none')
    expect(text).toContain('Paid by: paper check mailed to your address')
  })

  it('renders the same statement to the same bytes', async () => {
    const first = await renderPayoutStatementPdf({ statement: makeStatement(), locale: 'es' })
    const second = await renderPayoutStatementPdf({ statement: makeStatement(), locale: 'es' })
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(second.equals(first)).toBe(true)
  })
})
