import fs from 'node:fs'
import { createRequire } from 'node:module'
import PDFDocument from 'pdfkit'
import { longDate } from '../../src/agreement-context.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { formatCents } from '../../src/money.ts'
import { mask, maskEmail, type PayoutChoice } from '../../src/payout-details.ts'
import type { Locale, Translator } from '../../src/translate.ts'
import type { PayoutSplit } from './payout-split.ts'
import { payoutTranslator } from './payout-texts.ts'

/** What a claimant's payment statement shows. */
export interface PayoutStatement {
  claimantName: string
  appName: string
  claimId: number
  split: PayoutSplit
  /** The signed agreement the fee percent was read from. */
  agreement: {
    templateName: string
    templateVersion: string
    /** The calendar date it was signed where the claimant was, YYYY-MM-DD. */
    signedOn: string
    /** SHA-256 of the signed HTML, as stored. */
    sha256: string
  }
  /** How the net is paid; its numbers are masked on the page, whatever is passed in. */
  payment: PayoutChoice
  /** The statement's date, YYYY-MM-DD: the same statement always renders to the same bytes. */
  issuedOn: string
  /** The firm.json name unless given. */
  firmName?: string
}

const MARGIN = 72
const require = createRequire(import.meta.url)
/** Noto Sans, as the agreements use: accented names and Spanish labels print as written. */
const FONT_FILES = {
  Body: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  'Body-Bold': '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const
let fontBytes: Record<keyof typeof FONT_FILES, Buffer> | undefined

/** The font files, read once for the process; each document embeds only the glyphs it uses. */
function readFonts(): Record<keyof typeof FONT_FILES, Buffer> {
  fontBytes ??= {
    Body: fs.readFileSync(require.resolve(FONT_FILES.Body)),
    'Body-Bold': fs.readFileSync(require.resolve(FONT_FILES['Body-Bold'])),
  }
  return fontBytes
}

/**
 * A claimant's payment statement as a Letter PDF in their language: the firm, the claimant, the app and
 * claim; the award, the fee with its percent and the signed agreement it comes from, the costs (and,
 * when the firm advanced costs on the claim itself, their parts), the backup withholding and the net; how the net is paid (masked) and how each amount was computed.
 */
export async function renderPayoutStatementPdf({
  statement,
  locale,
}: {
  statement: PayoutStatement
  locale: Locale
}): Promise<Buffer> {
  const t = payoutTranslator(locale)
  const { split, agreement } = statement
  const money = (cents: number) => formatCents(cents, locale)
  const [year = 1970, month = 1, day = 1] = statement.issuedOn.split('-').map(Number)
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: t('Payment statement'), CreationDate: new Date(Date.UTC(year, month - 1, day)) },
    displayTitle: true,
    tagged: true,
    lang: locale === 'es' ? 'es-US' : 'en-US',
    pdfVersion: '1.7',
  })
  for (const [name, bytes] of Object.entries(readFonts())) doc.registerFont(name, bytes)
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve)
    doc.on('error', reject)
  })

  const root = doc.struct('Document')
  doc.addStructure(root)
  const width = doc.page.width - 2 * MARGIN
  const block = (tag: 'H1' | 'H2' | 'P', draw: () => void) => root.add(doc.struct(tag, {}, draw))
  const write = (text: string, { size = 10.5, isBold = false, gap = 4 } = {}) => {
    doc.font(isBold ? 'Body-Bold' : 'Body').fontSize(size)
    doc.text(printable(doc, text), MARGIN, doc.y, { width, lineGap: 2 })
    doc.y += gap
  }
  /** A label on the left and its amount on the right of one line. */
  const amountLine = (label: string, cents: number, isBold = false) =>
    block('P', () => {
      const top = doc.y
      doc.font(isBold ? 'Body-Bold' : 'Body').fontSize(11)
      const amount = money(cents)
      doc.text(printable(doc, label), MARGIN, top, { width: width - 110, lineGap: 2 })
      const bottom = doc.y
      doc.text(amount, MARGIN + width - doc.widthOfString(amount), top, { lineBreak: false })
      doc.y = bottom + 4
    })

  block('P', () => write(statement.firmName ?? FIRM_SETTINGS.firmName, { isBold: true, gap: 2 }))
  block('H1', () => write(t('Payment statement'), { size: 18, isBold: true, gap: 10 }))
  for (const [label, value] of [
    [t('Claimant'), statement.claimantName],
    [t('App'), statement.appName],
    [t('Claim ID'), String(statement.claimId)],
    [t('Statement date'), longDate(statement.issuedOn, locale)],
  ] as const) {
    block('P', () => write(`${label}: ${value}`, { gap: 2 }))
  }
  doc.y += 12

  block('H2', () => write(t('Your payment'), { size: 13, isBold: true, gap: 6 }))
  amountLine(t('Award (gross recovery)'), split.grossCents)
  amountLine(t('Attorney fee ({percent}%)', { percent: split.feePercent }), split.feeCents)
  amountLine(t('Case costs'), split.costsCents)
  // the costs' parts when the firm advanced costs on this claim itself; a batch's share alone is the whole
  if (split.claimCostsCents > 0) {
    amountLine(t('Costs advanced on your claim'), split.claimCostsCents)
    if (split.batchCostsCents > 0) amountLine(t('Your share of shared costs'), split.batchCostsCents)
    if (split.costsWaivedCents > 0) amountLine(t('Costs you do not owe'), split.costsWaivedCents)
  }
  amountLine(t('Backup withholding'), split.withholdingCents)
  amountLine(t('Net to you'), split.netCents, true)
  doc.y += 6
  block('P', () =>
    write(
      t(
        'The fee percent is the one in the agreement you signed: {template}, version {version}, signed on {date}. SHA-256 of the signed agreement: {sha256}',
        {
          template: agreement.templateName,
          version: agreement.templateVersion,
          date: longDate(agreement.signedOn, locale),
          sha256: agreement.sha256,
        },
      ),
      { size: 9.5 },
    ),
  )
  block('P', () => write(`${t('Paid by')}: ${paymentShown(statement.payment, t)}`, { gap: 12 }))

  block('H2', () => write(t('How it was computed'), { size: 13, isBold: true, gap: 6 }))
  for (const line of split.explanation[locale]) block('P', () => write(line, { size: 10 }))

  root.end()
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

/** How the net is paid, its number or address masked. */
function paymentShown(payment: PayoutChoice, t: Translator): string {
  const contact = payment.email ? maskEmail(payment.email) : mask(payment.phone ?? '')
  switch (payment.method) {
    case 'paypal':
      return t('PayPal ({contact})', { contact })
    case 'venmo':
      return t('Venmo ({contact})', { contact })
    case 'ach':
      return payment.accountType === 'savings'
        ? t('bank transfer (ACH) to savings account {account}', {
            account: mask(payment.accountNumber ?? ''),
          })
        : t('bank transfer (ACH) to checking account {account}', {
            account: mask(payment.accountNumber ?? ''),
          })
    case 'check':
      return t('paper check mailed to your address')
  }
}

interface EmbeddedFont {
  font: { hasGlyphForCodePoint(codePoint: number): boolean }
}

/** The text as the current font can print it: a character it has no glyph for (an emoji) becomes '?'. */
function printable(doc: PDFKit.PDFDocument, text: string): string {
  const { font } = (doc as unknown as { _font: EmbeddedFont })._font
  let out = ''
  for (const char of text.normalize('NFC'))
    out += font.hasGlyphForCodePoint(char.codePointAt(0) ?? 0) ? char : '?'
  return out
}
