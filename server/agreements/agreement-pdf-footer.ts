import type { Translator } from '../../src/translate.ts'
import type { AgreementAudit } from './agreement-audit.ts'

const FOOTER_SIZE = 8.5
const FOOTER_COLOR = '#4b5563'

/**
 * The reference every page's foot carries: the claim's or the main form submission's id, labelled as
 * the audit page labels it.
 * @example agreementReference({ kind: 'claim', id: 4711 }, t) // 'Claim ID 4711'
 */
export function agreementReference(audit: Pick<AgreementAudit, 'kind' | 'id'>, t: Translator): string {
  return `${audit.kind === 'claim' ? t('Claim ID') : t('Main form submission ID')} ${audit.id}`
}

/**
 * Writes the reference and "Page N of M" in the foot of `count` pages from page `first` of a document
 * made with `bufferPages`, once all its pages exist; marked as pagination, which screen readers pass over.
 */
export function drawPageFooters(
  doc: PDFKit.PDFDocument,
  {
    reference,
    first,
    count,
    margin,
    font,
    t,
  }: { reference: string; first: number; count: number; margin: number; font: string; t: Translator },
): void {
  for (let index = 0; index < count; index++) {
    doc.switchToPage(first + index)
    const page = t('Page {page} of {pages}', { page: index + 1, pages: count })
    // in the bottom margin; without a width pdfkit writes the line where told, never on a new page
    const y = doc.page.height - margin / 2 - FOOTER_SIZE / 2
    doc.markContent('Artifact', { type: 'Pagination' })
    doc.font(font).fontSize(FOOTER_SIZE).fillColor(FOOTER_COLOR)
    doc.text(reference, margin, y, { lineBreak: false })
    doc.text(page, doc.page.width - margin - doc.widthOfString(page), y, { lineBreak: false })
    doc.fillColor('black')
    doc.endMarkedContent()
  }
}
