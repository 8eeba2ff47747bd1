import fs from 'node:fs'
import { createRequire } from 'node:module'
import { isDecodablePng } from '../uploads/check-png.ts'
import { PNG_SIGNATURE } from '../uploads/png-image.ts'
import { Parser } from 'htmlparser2'
import PDFDocument from 'pdfkit'
import { translator, type Translator } from '../../src/translate.ts'
import { auditRows, type AgreementAudit } from './agreement-audit.ts'
import { agreementReference, drawPageFooters } from './agreement-pdf-footer.ts'

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

type Block = TextBlock | { kind: 'image'; bytes: Buffer; alt: string }

type StructElement = ReturnType<PDFKit.PDFDocument['struct']>

const MARGIN = 72
const BODY_SIZE = 11
const LINE_GAP = 2
const LIST_INDENT = 18
const IMAGE_BOX: [number, number] = [200, 150]
const IMAGE_AFTER = 6
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
/** Each level of text as a screen reader reads the tagged PDF. */
const STRUCTURE_TAGS = { title: 'H1', heading: 'H2', subheading: 'H3', paragraph: 'P' } as const

const require = createRequire(import.meta.url)
/**
 * Noto Sans, embedded (pdfkit keeps only the glyphs a document uses): Latin, Latin Extended,
 * Vietnamese, Greek and Cyrillic print as written, where the standard PDF fonts know Windows-1252 only.
 */
const FONT_FILES = {
  Body: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  'Body-Bold': '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  'Body-Italic': '@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf',
  'Body-BoldItalic': '@expo-google-fonts/noto-sans/700Bold_Italic/NotoSans_700Bold_Italic.ttf',
} as const
type FaceName = keyof typeof FONT_FILES

/** A font pdfkit has opened (fontkit's): pdfkit embeds one given to registerFont as it does a file. */
interface OpenedFont {
  layout(text: string, ...options: unknown[]): GlyphRun
}

/** What fontkit's layout gives and pdfkit reads: the glyphs, their positions, the run's width. */
interface GlyphRun {
  glyphs: unknown[]
  positions: GlyphPosition[]
  readonly advanceWidth: number
}

interface GlyphPosition {
  xAdvance: number
  yAdvance: number
  xOffset: number
  yOffset: number
}

/** A shaped word as the cache hands it out: positions of its own, as pdfkit scales them in place. */
class CachedRun implements GlyphRun {
  constructor(
    readonly glyphs: unknown[],
    readonly positions: GlyphPosition[],
  ) {}

  get advanceWidth(): number {
    return this.positions.reduce((width, position) => width + position.xAdvance, 0)
  }
}

/** Words shaped per face before the cache starts again: agreements share most of their words. */
const SHAPED_WORDS_LIMIT = 50_000
let fonts: Record<FaceName, OpenedFont> | undefined

/**
 * The four faces, opened once for the process and shared by every document, each word shaped once:
 * opening a face, decoding its layout tables (kerning, ligatures) and shaping the words (pdfkit lays
 * out text word by word, caching each only within its document) were most of a document's render.
 * Each document still embeds its own subset of the glyphs it uses.
 */
function openFonts(): Record<FaceName, OpenedFont> {
  if (fonts) return fonts
  const opener = new PDFDocument({ autoFirstPage: false })
  const opened: Partial<Record<FaceName, OpenedFont>> = {}
  for (const [name, file] of Object.entries(FONT_FILES) as [FaceName, string][]) {
    opener.registerFont(name, fs.readFileSync(require.resolve(file)))
    opener.font(name)
    opened[name] = withShapedWords((opener as unknown as { _font: { font: OpenedFont } })._font.font)
  }
  fonts = opened as Record<FaceName, OpenedFont>
  return fonts
}

/** The font, its layout of plain text (no features asked) kept per word across documents. */
function withShapedWords(font: OpenedFont): OpenedFont {
  const layout = font.layout.bind(font)
  const shaped = new Map<string, { glyphs: unknown[]; positions: GlyphPosition[] }>()
  font.layout = (text, ...options) => {
    if (options.some((option) => option !== undefined)) return layout(text, ...options)
    let word = shaped.get(text)
    if (!word) {
      const run = layout(text)
      word = { glyphs: run.glyphs, positions: run.positions.map((position) => copyPosition(position)) }
      if (shaped.size >= SHAPED_WORDS_LIMIT) shaped.clear()
      shaped.set(text, word)
    }
    return new CachedRun(
      word.glyphs,
      word.positions.map((position) => copyPosition(position)),
    )
  }
  return font
}

function copyPosition({ xAdvance, yAdvance, xOffset, yOffset }: GlyphPosition): GlyphPosition {
  return { xAdvance, yAdvance, xOffset, yOffset }
}

/**
 * The signed agreement as a Letter PDF: the stored HTML's text in order (same words), its images, and a last
 * "Audit Details" page; each page's foot names the claim (or main form submission) and says "Page N of M",
 * and a signature's label stays on the signature's page. Throws if an image in the HTML cannot be decoded,
 * rather than leave a signature out.
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
  return renderHtmlPdf({
    title,
    // the signing time, not now, so one stored record always renders to the same bytes
    createdAt: Number.isNaN(signedAt.getTime()) ? undefined : signedAt,
    lang: audit.locale === 'es' ? 'es-US' : 'en-US',
    parts: [{ html, reference: agreementReference(audit, t), auditRows: auditRows(audit, t) }],
    t,
  })
}

/** One document in a PDF: it starts on a new page, and its pages are numbered on their own. */
export interface PdfPart {
  html: string
  /** What each of its pages' foot names, e.g. "Claim ID 4711". */
  reference: string
  /** A last "Audit Details" page's rows (signed agreements). */
  auditRows?: [string, string][]
}

/**
 * HTML documents (a notice of dispute, a demand, counsel's statement; or a signed agreement) as one Letter
 * PDF, each part from a new page with its reference and "Page N of M" in every page's foot. The same
 * input gives the same bytes: `createdAt` is the document's date, never now.
 */
export async function renderHtmlPdf({
  title,
  createdAt,
  lang,
  parts,
  t = translator(undefined),
}: {
  title: string
  createdAt: Date | undefined
  lang: 'en-US' | 'es-US'
  parts: readonly PdfPart[]
  t?: Translator
}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: createdAt ? { Title: title, CreationDate: createdAt } : { Title: title },
    displayTitle: true,
    // tagged: headings, paragraphs, lists and the signature figure, in the document's language
    tagged: true,
    lang,
    pdfVersion: '1.7',
    // every page stays open until the last exists, for its "Page N of M"
    bufferPages: true,
  })
  // pdfkit's types know fonts as files and buffers only
  for (const [name, font] of Object.entries(openFonts())) doc.registerFont(name, font as unknown as Buffer)
  doc.font('Body')
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve)
    doc.on('error', reject)
  })

  const root = doc.struct('Document')
  doc.addStructure(root)
  const footers: { reference: string; first: number; count: number }[] = []
  parts.forEach((part, partIndex) => {
    if (partIndex > 0) doc.addPage()
    const first = doc.bufferedPageRange().start + doc.bufferedPageRange().count - 1
    drawHtml(doc, root, part.html)
    if (part.auditRows) drawAuditPage(doc, root, part.auditRows, t)
    const range = doc.bufferedPageRange()
    footers.push({ reference: part.reference, first, count: range.start + range.count - first })
  })
  for (const footer of footers) {
    drawPageFooters(doc, { ...footer, margin: MARGIN, font: fontName(false, false), t })
  }
  root.end()
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

/** Draws the HTML's blocks from where the document stands, adding pages as they fill. */
function drawHtml(doc: PDFKit.PDFDocument, root: StructElement, html: string): void {
  let list: StructElement | undefined
  const blocks = parseAgreementHtml(html)
  const images = new Map(
    blocks.flatMap((block) => (block.kind === 'image' ? [[block, openImage(doc, block.bytes)]] : [])),
  )
  blocks.forEach((block, index) => {
    if (block.kind !== 'item' && list) {
      list.end()
      list = undefined
    }
    if (block.kind === 'image') {
      const image = images.get(block)!
      root.add(doc.struct('Figure', { alt: block.alt }, () => drawImage(doc, image)))
      return
    }
    const keepWithNext = heightUpToSignature(doc, blocks, index, images)
    if (block.kind === 'item') {
      if (!list) root.add((list = doc.struct('L')))
      list.add(drawListItem(doc, block, keepWithNext))
    } else {
      root.add(doc.struct(STRUCTURE_TAGS[block.kind], {}, () => drawTextBlock(doc, block, keepWithNext)))
    }
  })
  list?.end()
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
            blocks.push({ kind: 'image', bytes: Buffer.from(match[1], 'base64'), alt: attributes.alt ?? '' })
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

/** A list item as the tags want it: its marker (Lbl) and its text (LBody). */
function drawListItem(
  doc: PDFKit.PDFDocument,
  block: TextBlock & { kind: 'item' },
  keepWithNext: number,
): StructElement {
  const left = MARGIN + block.indent * LIST_INDENT
  const top = startBlock(doc, block, { textLeft: left + LIST_INDENT, keepWithNext })
  return doc.struct('LI', {}, [
    doc.struct('Lbl', {}, () => {
      doc.font(fontName(false, false)).text(block.marker, left, top, { lineBreak: false })
    }),
    doc.struct('LBody', {}, () => drawRuns(doc, block, left + LIST_INDENT, top)),
  ])
}

/** At most this many short lines (a heading, Name, E-mail, Phone, Date) go with a signature. */
const SIGNATURE_BLOCK_LINES = 6

/**
 * The height of what must follow block `index` on its page: the signature ("Signature:" and its image)
 * and the short lines leading to it (the block's "Client", "Name: …", "Date: …"), so a signature block
 * moves to a new page whole rather than leave its first lines behind. Nothing for a block that is not
 * part of one, or for a long paragraph (only the label right before an image is kept with it then).
 */
function heightUpToSignature(
  doc: PDFKit.PDFDocument,
  blocks: Block[],
  index: number,
  images: Map<Block, OpenedImage>,
): number {
  // most blocks have no signature near: found by kind alone, before any text is measured
  const ahead = blocks.slice(index + 1, index + 1 + SIGNATURE_BLOCK_LINES)
  const imageAt = ahead.findIndex((block) => block.kind === 'image' || block.kind === 'item')
  const image = ahead[imageAt]
  if (image?.kind !== 'image') return 0
  const imageHeight = imageSize(images.get(image)!).height + IMAGE_AFTER
  // the label right before an image stays with it, however long
  if (imageAt === 0) return imageHeight
  const lineHeight = (block: TextBlock) => {
    const height = textHeight(doc, block, MARGIN)
    return { height, isShort: height / doc.currentLineHeight(true) <= 1.5 }
  }
  // a block of the signature's own is one line (its label and value); a longer one is not kept
  if (!lineHeight(blocks[index] as TextBlock).isShort) return 0
  let height = imageHeight
  for (const block of ahead.slice(0, imageAt) as TextBlock[]) {
    const measured = lineHeight(block)
    if (!measured.isShort) return 0
    const style = TEXT_STYLES[block.kind]
    height += style.before + measured.height + style.after
  }
  return height
}

function drawTextBlock(doc: PDFKit.PDFDocument, block: TextBlock, keepWithNext: number): void {
  const left = MARGIN + block.indent * LIST_INDENT
  drawRuns(doc, block, left, startBlock(doc, block, { textLeft: left, keepWithNext }))
}

/**
 * Moves to where the block starts (a new page if it would not fit) and gives its top. `keepWithNext`
 * is the height of what must follow on the same page (a signature after its label).
 */
function startBlock(
  doc: PDFKit.PDFDocument,
  block: TextBlock,
  { textLeft, keepWithNext }: { textLeft: number; keepWithNext: number },
): number {
  const style = TEXT_STYLES[block.kind]
  doc.fontSize(style.size)
  // keep a heading with the first lines that follow it
  const firstLines = doc.currentLineHeight(true) * (style.bold ? 3 : 1)
  const withNext = keepWithNext > 0 ? textHeight(doc, block, textLeft) + style.after + keepWithNext : 0
  const needed = style.before + Math.max(firstLines, withNext)
  if (doc.y + needed > doc.page.maxY()) doc.addPage()
  else doc.y += style.before
  return doc.y
}

/** The block's height as drawn from textLeft, measured in bold if any of it is (never less than drawn). */
function textHeight(doc: PDFKit.PDFDocument, block: TextBlock, textLeft: number): number {
  const style = TEXT_STYLES[block.kind]
  const isBold = style.bold || block.runs.some((run) => run.bold)
  const text = block.runs.map((run) => run.text).join('')
  doc.font(fontName(isBold, false)).fontSize(style.size)
  const height = doc.heightOfString(printable(doc, text), {
    width: doc.page.width - MARGIN - textLeft,
    lineGap: LINE_GAP,
  })
  doc.font(fontName(false, false))
  return height
}

function drawRuns(doc: PDFKit.PDFDocument, block: TextBlock, textLeft: number, top: number): void {
  const style = TEXT_STYLES[block.kind]
  const width = doc.page.width - MARGIN - textLeft
  block.runs.forEach((run, index) => {
    doc.font(fontName(style.bold || run.bold, run.italic)).fontSize(style.size)
    const options = { width, lineGap: LINE_GAP, continued: index < block.runs.length - 1 }
    if (index === 0) doc.text(printable(doc, run.text), textLeft, top, options)
    else doc.text(printable(doc, run.text), options)
  })
  doc.x = MARGIN
  doc.y += style.after
}

function drawImage(doc: PDFKit.PDFDocument, image: OpenedImage): void {
  const { width, height } = imageSize(image)
  if (doc.y + height > doc.page.maxY()) doc.addPage()
  // pdfkit draws an already opened image when given one; its types only know buffers and paths
  doc.image(image as unknown as Buffer, MARGIN, doc.y, { width, height })
  doc.y += height + IMAGE_AFTER
}

/** The image's size on the page: within IMAGE_BOX, its proportions kept. */
function imageSize(image: OpenedImage): { width: number; height: number } {
  const scale = Math.min(IMAGE_BOX[0] / image.width, IMAGE_BOX[1] / image.height)
  return { width: image.width * scale, height: image.height * scale }
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

function drawAuditPage(
  doc: PDFKit.PDFDocument,
  root: StructElement,
  rows: [string, string][],
  t: Translator,
): void {
  doc.addPage()
  root.add(
    doc.struct('H1', {}, () => {
      doc
        .font(fontName(true, false))
        .fontSize(18)
        .text(printable(doc, t('Audit Details')), MARGIN, MARGIN)
    }),
  )
  doc.moveDown(0.8)
  const width = doc.page.width - 2 * MARGIN
  for (const [label, value] of rows) {
    root.add(
      doc.struct('P', {}, () => {
        doc.font(fontName(true, false)).fontSize(10).text(printable(doc, label), MARGIN, doc.y, { width })
        doc
          .font(fontName(false, false))
          .fontSize(10)
          .text(printable(doc, value), { width, lineGap: LINE_GAP })
      }),
    )
    doc.moveDown(0.6)
  }
}

function fontName(bold: boolean, italic: boolean): string {
  if (bold) return italic ? 'Body-BoldItalic' : 'Body-Bold'
  return italic ? 'Body-Italic' : 'Body'
}

interface EmbeddedFont {
  font: { hasGlyphForCodePoint(codePoint: number): boolean }
}

/**
 * The text as the current font can print it: a character it has no glyph for (emoji, CJK, …) becomes
 * '?', one per character, rather than an empty box.
 */
function printable(doc: PDFKit.PDFDocument, text: string): string {
  const { font } = (doc as unknown as { _font: EmbeddedFont })._font
  let out = ''
  for (const char of text.normalize('NFC')) {
    out += char === '\n' || font.hasGlyphForCodePoint(char.codePointAt(0) ?? 0) ? char : '?'
  }
  return out
}
