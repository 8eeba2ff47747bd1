import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { translator, type Dictionary } from '../../src/translate.ts'
import { type AgreementAudit, renderAgreementPdf } from './agreement-pdf.ts'

const SCRIPT_NAME = '<script>alert(1)</script>'

function crc32(bytes: Buffer): number {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return ~crc >>> 0
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/** An RGBA PNG (what the signature pad sends) of a wavy stroke; `rows` replaces the filtered pixel rows. */
function makePng({ width = 60, height = 20, rows }: { width?: number; height?: number; rows?: Buffer } = {}) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bits per channel
  header[9] = 6 // RGBA
  const pixels: number[] = []
  for (let y = 0; y < height; y++) {
    pixels.push(0) // filter: none
    for (let x = 0; x < width; x++) {
      const isInk = Math.abs(y - height / 2 - 5 * Math.sin(x / 5)) < 2
      pixels.push(0, 0, 96, isInk ? 255 : 0)
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(rows ?? Buffer.from(pixels))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

function pngDataUrl(png = makePng()): string {
  return `data:image/png;base64,${png.toString('base64')}`
}

/** The agreement fragment as our templates render it (text HTML-escaped), with overrides. */
function makeAgreementHtml({
  name = 'Ana Lopez',
  signatureSrc = pngDataUrl(),
  extra = '',
}: { name?: string; signatureSrc?: string; extra?: string } = {}): string {
  const escaped = name
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;')
  return `<article class="agreement agreement-full">
<h2 class="agreement-title">Attorney-Client Contingency Fee Agreement</h2>
<p>This agreement is between ${escaped} and Example Law Group &amp; Partners (&quot;the Firm&quot;).</p>
<section class="agreement-section" id="section-1"><h3>1. Scope of Representation</h3>
<p>The Firm will represent the Client in <strong>individual arbitration</strong> against <em>the company</em>,
   for the client&#x27;s claim &#x3D; <span class="blank">______</span> dollars.<br>It covers &#x60;fees&#x60;
   &lt;only&gt;.</p>
<ul><li>Costs are advanced by the Firm.</li><li>The Client may end this agreement in writing.</li></ul>
<h4>1.1 Arbitration fees</h4>
<p>Paid by the company.</p>
</section>
${extra}
<div class="signature-block">
<p><strong>Client:</strong> ${escaped}</p>
<p><strong>Date:</strong> November 22, 2026</p>
<img class="signature-image" src="${signatureSrc}" alt="Signature">
</div>
</article>`
}

function makeAudit(overrides: Partial<AgreementAudit> = {}): AgreementAudit {
  return {
    kind: 'claim',
    id: 4711,
    app: 'brigit',
    signedAt: '2026-11-22T15:04:05.000Z',
    ipAddress: '203.0.113.7',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0 Safari/537.36',
    sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    templateVersion: 'contingency-fee@3',
    locale: 'en',
    signatureMethod: 'drawn',
    typedSignature: null,
    ...overrides,
  }
}

function render(html = makeAgreementHtml(), audit = makeAudit()): Promise<Buffer> {
  return renderAgreementPdf({ html, title: 'Brigit Attorney-Client Contingency Fee Agreement', audit })
}

/** The words a reader sees: tags dropped, our templates' entities decoded, whitespace collapsed. */
function wordsOfHtml(html: string): string[] {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#x3D;', '=')
    .replaceAll('&#x60;', '`')
    .replaceAll('&amp;', '&')
  return text.split(/\s+/).filter(Boolean)
}

interface ReadPdf {
  title: unknown
  /** The page's words and lines, its foot (below the bottom margin) apart in `footer`. */
  pages: { words: string[]; lines: string[]; footer: string; hasImage: boolean }[]
}

/** How far above the page's bottom edge its foot ends and the text of the page may start. */
const FOOT_TOP = 60

async function readPdf(pdf: Buffer): Promise<ReadPdf> {
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise
  try {
    const { info } = await document.getMetadata()
    const pages = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      const all = content.items.flatMap((item) => ('str' in item && item.str.trim() ? [item] : []))
      const items = all.filter((item) => (item.transform[5] ?? 0) >= FOOT_TOP)
      const footer = all.filter((item) => (item.transform[5] ?? 0) < FOOT_TOP)
      const lines = new Map<number, string[]>()
      for (const item of items) {
        const y = Math.round(item.transform[5] ?? 0)
        lines.set(y, [...(lines.get(y) ?? []), item.str])
      }
      const text = items.map((item) => item.str).join(' ')
      const operators = await page.getOperatorList()
      pages.push({
        words: text.split(/\s+/).filter(Boolean),
        lines: [...lines.values()].map((parts) => parts.join(' ').replace(/\s+/g, ' ').trim()),
        footer: footer.map((item) => item.str).join(' '),
        hasImage: operators.fnArray.includes(OPS.paintImageXObject),
      })
    }
    return { title: (info as { Title?: unknown }).Title, pages }
  } finally {
    await document.destroy()
  }
}

describe('renderAgreementPdf', () => {
  it('returns a PDF whose Title metadata is the title', async () => {
    const pdf = await render()
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect((await readPdf(pdf)).title).toBe('Brigit Attorney-Client Contingency Fee Agreement')
  })

  it('shows every word of the signed HTML, decoded, in the same order, before the audit page', async () => {
    const html = makeAgreementHtml()
    const { pages } = await readPdf(await render(html))
    const agreementWords = pages.slice(0, -1).flatMap((page) => page.words)
    expect(agreementWords.filter((word) => word !== '•')).toEqual(wordsOfHtml(html))
    expect(agreementWords.join(' ')).toContain(
      `for the client's claim = ______ dollars. It covers \`fees\` <only>.`,
    )
  })

  it('shows a name holding a script tag as literal text', async () => {
    const { pages } = await readPdf(await render(makeAgreementHtml({ name: `Ana ${SCRIPT_NAME} Lopez` })))
    const text = pages[0]?.words.join(' ')
    expect(text).toContain(`between Ana ${SCRIPT_NAME} Lopez and`)
    expect(text).toContain(`Client: Ana ${SCRIPT_NAME} Lopez`)
  })

  it('marks unordered list items with bullets and numbers ordered ones', async () => {
    const extra = '<ol><li>First step</li><li><p>Second step</p></li></ol>'
    const { pages } = await readPdf(await render(makeAgreementHtml({ extra })))
    const text = pages[0]?.words.join(' ')
    expect(text).toContain('• Costs are advanced by the Firm. • The Client may end')
    expect(text).toContain('1. First step 2. Second step')
  })

  it('breaks lines at <br> only, not at whitespace between inline elements', async () => {
    const extra = '<p><strong>Bold</strong>\n<em>oblique</em> text<br>\nnext line</p>'
    const { pages } = await readPdf(await render(makeAgreementHtml({ extra })))
    expect(pages[0]?.lines).toEqual(expect.arrayContaining(['Bold oblique text', 'next line']))
  })

  it('writes strong text in bold and em text in italic Noto Sans, embedded (a subset)', async () => {
    const raw = (await render()).toString('latin1')
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Bold\b/)
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Italic\b/)
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/)
  })

  it('prints Vietnamese, Polish, Greek and Cyrillic names as written', async () => {
    const name = 'Nguyễn Văn Łukasz Ωμέγα Дмитрий'
    const { pages } = await readPdf(
      await render(makeAgreementHtml({ name }), makeAudit({ userAgent: 'Żółć ĐŨ' })),
    )
    expect(pages[0]?.words.join(' ')).toContain('between Nguyễn Văn Łukasz Ωμέγα Дмитрий and')
    expect(pages.at(-1)?.words.join(' ')).toContain('User agent Żółć ĐŨ')
  })

  it('is tagged for screen readers: marked, in its language, with headings, paragraphs, a list and the figure', async () => {
    const pdf = await render(makeAgreementHtml(), makeAudit({ locale: 'es' }))
    const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise
    try {
      expect(await document.getMarkInfo()).toMatchObject({ Marked: true })
      const roles = new Set<string>()
      const collect = (node: { role?: string; children?: unknown[] } | null) => {
        if (!node) return
        if (node.role) roles.add(node.role)
        for (const child of node.children ?? []) collect(child as { role?: string; children?: unknown[] })
      }
      collect(await (await document.getPage(1)).getStructTree())
      expect([...roles]).toEqual(expect.arrayContaining(['Document', 'H1', 'H2', 'P', 'L', 'LI', 'Figure']))
    } finally {
      await document.destroy()
    }
    const raw = pdf.toString('latin1')
    expect(raw).toMatch(/\/Lang \(es-US\)/)
    expect(raw).toMatch(/\/DisplayDocTitle true/)
  })

  it('draws the PNG signature as an image', async () => {
    const pdf = await render()
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/)
    const { pages } = await readPdf(pdf)
    expect(pages.map((page) => page.hasImage)).toEqual([true, false])
  })

  it('names the claim and says "Page N of M" at the foot of every page, the audit page too', async () => {
    const extra = Array.from({ length: 60 }, (_, i) => `<p>Clause ${i + 1} of the terms.</p>`).join('')
    const { pages } = await readPdf(await render(makeAgreementHtml({ extra })))
    expect(pages.length).toBeGreaterThanOrEqual(3)
    expect(pages.map((page) => page.footer)).toEqual(
      pages.map((_, i) => `Claim ID 4711 Page ${i + 1} of ${pages.length}`),
    )
  })

  it('names a main form submission at the foot of its pages, in the language it was signed in', async () => {
    const spanish = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../forms/es/ui/documents.json'), 'utf8'),
    ) as Dictionary
    const pdf = await renderAgreementPdf({
      html: makeAgreementHtml(),
      title: 'Acuerdo',
      audit: makeAudit({ kind: 'intake', id: 12, locale: 'es' }),
      t: translator(spanish),
    })
    const { pages } = await readPdf(pdf)
    expect(pages.map((page) => page.footer)).toEqual([
      'ID de la solicitud del formulario principal 12 Página 1 de 2',
      'ID de la solicitud del formulario principal 12 Página 2 de 2',
    ])
  })

  it('keeps the label "Signature:" on the page of the signature it introduces', async () => {
    const signature = `<p><strong>Signature:</strong> <img src="${pngDataUrl()}" alt="Signature"></p>`
    let hasMovedLabel = false
    // from the label and signature on page 1 to the label in the last lines of page 1, where the
    // signature would not fit below it
    for (let fillers = 22; fillers <= 27; fillers++) {
      const lines = Array.from({ length: fillers }, (_, i) => `<p>Line ${i + 1}.</p>`).join('')
      const { pages } = await readPdf(
        await render(`<article><h2>Agreement</h2>${lines}${signature}</article>`),
      )
      const labelled = pages.find((page) => page.lines.includes('Signature:'))
      expect(labelled?.hasImage, `${fillers} lines before`).toBe(true)
      if (labelled !== pages[0]) hasMovedLabel = true
    }
    expect(hasMovedLabel).toBe(true)
  })

  it('moves a signature block to a new page whole: "Client", name, e-mail, phone and date stay with the signature', async () => {
    const block = [
      '<h4>Client</h4>',
      '<p><strong>Name:</strong> Jane Doe</p>',
      '<p><strong>E-mail:</strong> jane@example.com</p>',
      '<p><strong>Phone:</strong> (808) 555-0100</p>',
      '<p><strong>Date:</strong> November 28, 2026</p>',
      `<p><strong>Signature:</strong> <img src="${pngDataUrl()}" alt="Signature"></p>`,
    ].join('')
    let hasMovedBlock = false
    for (let fillers = 16; fillers <= 27; fillers += 2) {
      const lines = Array.from({ length: fillers }, (_, i) => `<p>Line ${i + 1}.</p>`).join('')
      const { pages } = await readPdf(await render(`<article><h2>Agreement</h2>${lines}${block}</article>`))
      const client = pages.find((page) => page.lines.includes('Client'))
      expect(client?.hasImage, `${fillers} lines before`).toBe(true)
      expect(client?.lines.join(' '), `${fillers} lines before`).toContain('Date: November 28, 2026')
      if (client !== pages[0]) hasMovedBlock = true
    }
    expect(hasMovedBlock).toBe(true)
  })

  it('ignores images that are not PNG or JPEG data URLs', async () => {
    const pdf = await render(makeAgreementHtml({ signatureSrc: 'https://example.com/signature.png' }))
    expect(pdf.toString('latin1')).not.toMatch(/\/Subtype \/Image/)
  })

  it('refuses a corrupt PNG with an error instead of crashing the process', async () => {
    const badFilter = Buffer.from([9, ...Array<number>(60 * 4).fill(0)]) // filter types stop at 4
    const png = makePng({ height: 1, rows: badFilter })
    await expect(render(makeAgreementHtml({ signatureSrc: pngDataUrl(png) }))).rejects.toThrow(
      /image in the agreement could not be read/,
    )
  })

  it('ends with an Audit Details page listing every audit value', async () => {
    const audit = makeAudit({ signedAt: '2026-11-22T10:04:05-05:00' })
    const { pages } = await readPdf(await render(makeAgreementHtml(), audit))
    const text = pages.at(-1)?.words.join(' ')
    expect(text).toMatch(/^Audit Details Claim ID 4711 App brigit Signed at \(UTC\) 2026-11-22T15:04:05.000Z/)
    expect(text).toContain(`IP address ${audit.ipAddress}`)
    expect(text).toContain(`User agent ${audit.userAgent}`)
    expect(text).toContain(`SHA-256 of the signed HTML ${audit.sha256}`)
    expect(text).toContain(`Template version ${audit.templateVersion}`)
  })

  it('puts ? for characters the font has no glyph for and keeps accents and typographic quotes', async () => {
    const name = 'Zoë O’Brien 😀 李'
    const { pages } = await readPdf(
      await render(makeAgreementHtml({ name }), makeAudit({ userAgent: 'Agent 🤖' })),
    )
    expect(pages[0]?.words.join(' ')).toContain('between Zoë O’Brien ? ? and')
    expect(pages.at(-1)?.words.join(' ')).toContain('User agent Agent ?')
  })

  it('renders the same record to the same bytes', async () => {
    expect((await render()).equals(await render())).toBe(true)
  })

  it('prints each agreement with its own words and the same bytes, whichever agreements came before it', async () => {
    const ana = makeAgreementHtml({ name: 'Ana Lopez' })
    const first = await render(ana)
    const zoe = await render(
      makeAgreementHtml({ name: 'Zoë Ångström-Øre', extra: '<p>Ωμέγα Жизнь Việt</p>' }),
    )
    expect((await render(ana)).equals(first)).toBe(true)
    const [anaText, zoeText] = await Promise.all([readPdf(first), readPdf(zoe)])
    expect(anaText.pages[0]?.words.join(' ')).toContain('between Ana Lopez and')
    expect(anaText.pages[0]?.words.join(' ')).not.toContain('Zoë')
    expect(zoeText.pages[0]?.words.join(' ')).toContain('between Zoë Ångström-Øre and')
    expect(zoeText.pages[0]?.words.join(' ')).toContain('Ωμέγα Жизнь Việt')
  })
})
