import { isDecodablePng, PNG_SIGNATURE } from '../uploads/check-png.ts'
import { Parser } from 'htmlparser2'
import PDFDocument from 'pdfkit'
import { translator, type Translator } from '../../src/translate.ts'
import { auditRows, type AgreementAudit } from './agreement-audit.ts'

/** What the audit page of a signed agreement lists. */
export type { AgreementAudit } from './agreement-audit.ts'

interface Run {
  text: string
  bold: boolean
  italic: boolean
}

type TextBlock =
  | { kind: 'title' | 'heading' | 'subheading' | 'paragraph'; runs: Run[]; indent: number }
  | { kind: 'item'; runs: Run[]; indent: number; marker: string }

type Block = TextBlock | { kind: 'image'; bytes: Buffer }

const MARGIN = 72
const BODY_SIZE = 11
const LINE_GAP = 2
const LIST_INDENT = 18
const IMAGE_BOX: [number, number] = [200, 150]
const TEXT_STYLES = {
  title: { size: 18, bold: true, before: 6, after: 10 },
  heading: { size: 13, bold: true, before: 10, after: 4 },
  subheading: { size: 11.5, bold: true, before: 8, after: 3 },
  paragraph: { size: BODY_SIZE, bold: false, before: 0, after: 6 },
  item: { size: BODY_SIZE, bold: false, before: 0, after: 3 },
}
const HEADINGS: Record<string, 'title' | 'heading' | 'subheading'> = {
  h1: 'title',
  h2: 'title',
  h3: 'heading',
  h4: 'subheading',
  h5: 'subheading',
  h6: 'subheading',
}
const BLOCK_TAGS = new Set(['article', 'section', 'div', 'header', 'footer', 'main', 'aside', 'nav'])
const IMAGE_SRC = /^data:image\/(?:png|jpeg);base64,([a-z0-9+/=\s]*)$/i
// the 27 characters WinAnsi puts in 0x80–0x9F; with Latin-1 they are all the standard Helvetica can show
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')

/**
 * The signed agreement as a Letter PDF: the stored HTML's text in order (same words), its images, and a last
 * "Audit Details" page. Throws if an image in the HTML cannot be decoded, rather than leave a signature out.
 */
export async function renderAgreementPdf({
  html,
  title,
  audit,
  t = translator(undefined),
}: {
  html: string
  title: string
  audit: AgreementAudit
  /** The document's own labels in its language. */
  t?: Translator
}): Promise<Buffer> {
  const signedAt = new Date(audit.signedAt)
  const hasSignedAt = !Number.isNaN(signedAt.getTime())
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    // the signing time, not now, so one stored record always renders to the same bytes
    info: hasSignedAt ? { Title: title, CreationDate: signedAt } : { Title: title },
    displayTitle: true,
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve)
    doc.on('error', reject)
  })

  for (const block of parseAgreementHtml(html)) {
    if (block.kind === 'image') drawImage(doc, block.bytes)
    else drawTextBlock(doc, block)
  }
  drawAuditPage(doc, auditRows(audit, t), t)
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

/** The HTML as blocks in document order; text is entity-decoded with whitespace collapsed as a browser would. */
function parseAgreementHtml(html: string): Block[] {
  const blocks: Block[] = []
  const lists: { isOrdered: boolean; count: number }[] = []
  let current: TextBlock | undefined
  let bold = 0
  let italic = 0

  const flush = (): void => {
    if (current && trimRuns(current.runs).length > 0) blocks.push(current)
    current = undefined
  }
  const start = (block: TextBlock): void => {
    flush()
    current = block
  }
  const append = (text: string, isBreak = false): void => {
    current ??= { kind: 'paragraph', runs: [], indent: lists.length }
    const last = current.runs.at(-1)
    const followsSpace = !last || last.text.endsWith(' ') || last.text.endsWith('\n')
    const collapsed = isBreak ? '\n' : text.replace(/[ \t\n\f\r]+/g, ' ')
    const clean = followsSpace && collapsed.startsWith(' ') ? collapsed.slice(1) : collapsed
    if (clean === '') return
    if (isBreak && last) last.text = last.text.replace(/ $/, '')
    if (last && last.bold === bold > 0 && last.italic === italic > 0) last.text += clean
    else current.runs.push({ text: clean, bold: bold > 0, italic: italic > 0 })
  }

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const heading = HEADINGS[name]
        if (heading) start({ kind: heading, runs: [], indent: 0 })
        else if (name === 'p') {
          // <li><p>…</p></li> keeps the item's marker
          if (current?.kind !== 'item' || current.runs.length > 0)
            start({ kind: 'paragraph', runs: [], indent: lists.length })
        } else if (name === 'li') {
          const list = lists.at(-1)
          const marker = list?.isOrdered ? `${++list.count}.` : '•'
          start({ kind: 'item', runs: [], indent: Math.max(lists.length - 1, 0), marker })
        } else if (name === 'ul' || name === 'ol') {
          flush()
          lists.push({ isOrdered: name === 'ol', count: 0 })
        } else if (BLOCK_TAGS.has(name)) flush()
        else if (name === 'strong' || name === 'b') bold++
        else if (name === 'em' || name === 'i') italic++
        else if (name === 'br') append('', true)
        else if (name === 'img') {
          const match = IMAGE_SRC.exec(attributes.src ?? '')
          if (match?.[1] !== undefined) {
            flush()
            blocks.push({ kind: 'image', bytes: Buffer.from(match[1], 'base64') })
          }
        }
      },
      ontext(text) {
        if (current || text.trim() !== '') append(text)
      },
      onclosetag(name) {
        if (HEADINGS[name] || name === 'p' || name === 'li' || BLOCK_TAGS.has(name)) flush()
        else if (name === 'ul' || name === 'ol') {
          flush()
          lists.pop()
        } else if (name === 'strong' || name === 'b') bold = Math.max(bold - 1, 0)
        else if (name === 'em' || name === 'i') italic = Math.max(italic - 1, 0)
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  flush()
  return blocks
}

/** Drops trailing spaces and line breaks, and runs left empty. */
function trimRuns(runs: Run[]): Run[] {
  for (let last = runs.at(-1); last; last = runs.at(-1)) {
    last.text = last.text.replace(/[ \n]+$/, '')
    if (last.text !== '') break
    runs.pop()
  }
  return runs
}

function drawTextBlock(doc: PDFKit.PDFDocument, block: TextBlock): void {
  const style = TEXT_STYLES[block.kind]
  const left = MARGIN + block.indent * LIST_INDENT
  const textLeft = block.kind === 'item' ? left + LIST_INDENT : left
  const width = doc.page.width - MARGIN - textLeft
  doc.fontSize(style.size)
  // keep a heading with the first lines that follow it
  const needed = style.before + doc.currentLineHeight(true) * (style.bold ? 3 : 1)
  if (doc.y + needed > doc.page.maxY()) doc.addPage()
  else doc.y += style.before
  const top = doc.y
  if (block.kind === 'item')
    doc.font(fontName(false, false)).text(block.marker, left, top, { lineBreak: false })
  block.runs.forEach((run, index) => {
    doc.font(fontName(style.bold || run.bold, run.italic))
    const options = { width, lineGap: LINE_GAP, continued: index < block.runs.length - 1 }
    if (index === 0) doc.text(toWinAnsi(run.text), textLeft, top, options)
    else doc.text(toWinAnsi(run.text), options)
  })
  doc.x = MARGIN
  doc.y += style.after
}

function drawImage(doc: PDFKit.PDFDocument, bytes: Buffer): void {
  const image = openImage(doc, bytes)
  const scale = Math.min(IMAGE_BOX[0] / image.width, IMAGE_BOX[1] / image.height)
  const height = image.height * scale
  if (doc.y + height > doc.page.maxY()) doc.addPage()
  // pdfkit draws an already opened image when given one; its types only know buffers and paths
  doc.image(image as unknown as Buffer, MARGIN, doc.y, { width: image.width * scale, height })
  doc.y += height + 6
}

interface OpenedImage {
  width: number
  height: number
}

/** pdfkit's openImage (left out of @types/pdfkit), after our own check that it cannot fail asynchronously. */
function openImage(doc: PDFKit.PDFDocument, bytes: Buffer): OpenedImage {
  const isPng = bytes.subarray(0, 8).equals(PNG_SIGNATURE)
  try {
    if (isPng && !isDecodablePng(bytes)) throw new Error('corrupt PNG')
    const image = (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes)
    if (!(image.width > 0 && image.height > 0)) throw new Error('empty image')
    return image
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`an image in the agreement could not be read (${reason}); check the stored signature`)
  }
}

function drawAuditPage(doc: PDFKit.PDFDocument, rows: [string, string][], t: Translator): void {
  doc.addPage()
  doc.font(fontName(true, false)).fontSize(18).text(t('Audit Details'), MARGIN, MARGIN)
  doc.moveDown(0.8)
  const width = doc.page.width - 2 * MARGIN
  for (const [label, value] of rows) {
    doc.font(fontName(true, false)).fontSize(10).text(label, MARGIN, doc.y, { width })
    doc.font(fontName(false, false)).fontSize(10).text(toWinAnsi(value), { width, lineGap: LINE_GAP })
    doc.moveDown(0.6)
  }
}

function fontName(bold: boolean, italic: boolean): string {
  if (bold) return italic ? 'Helvetica-BoldOblique' : 'Helvetica-Bold'
  return italic ? 'Helvetica-Oblique' : 'Helvetica'
}

/** What the standard Helvetica cannot encode (emoji, CJK, …) becomes '?', one per character. */
function toWinAnsi(text: string): string {
  let out = ''
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0
    const isEncodable =
      char === '\n' ||
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      WIN_ANSI_EXTRAS.has(char)
    out += isEncodable ? char : '?'
  }
  return out
}
