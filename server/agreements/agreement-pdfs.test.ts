import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkSeal } from '../../tests/server/support/check-pdf-seal.ts'
import { pdfText } from '../../tests/server/support/pdf-text.ts'
import type { AgreementAudit } from './agreement-audit.ts'
import { createLogger } from '../logger.ts'
import { agreementPdfThread, PDF_QUEUE_LIMIT } from './agreement-pdfs.ts'
import { loadPdfCertificate } from './pdf-seal.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-agreement-pdfs-'))
const pdfs = agreementPdfThread({
  certificate: loadPdfCertificate({ pdfSigningP12: undefined, dataDir }),
  tsaUrl: undefined,
  logger: createLogger('silent'),
  languages: {
    dictionary: (locale) => (locale === 'es' ? { 'Audit Details': 'Datos de auditoría' } : undefined),
  },
})
afterAll(async () => {
  await pdfs.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const audit: AgreementAudit = {
  kind: 'claim',
  id: 7,
  app: 'brigit',
  signedAt: '2026-11-22T15:04:05.000Z',
  ipAddress: '203.0.113.7',
  userAgent: 'test',
  sha256: 'a'.repeat(64),
  templateVersion: 'v1',
  locale: 'en',
  signatureMethod: 'drawn',
  typedSignature: null,
}
const document = { html: '<h2>Agreement</h2><p>I agree to the terms.</p>', title: 'Brigit Agreement', audit }

describe('agreementPdfThread (the PDF thread)', () => {
  it('makes the sealed PDF off the event loop, labelled in the language the agreement was signed in', async () => {
    const english = await pdfs.make(document)
    expect(checkSeal(english)).toBe('valid')
    expect(await pdfText(english)).toContain('I agree to the terms.')
    expect(await pdfText(english)).toContain('Audit Details')
    const spanish = await pdfs.make({ ...document, audit: { ...audit, locale: 'es' } })
    expect(checkSeal(spanish)).toBe('valid')
    expect(await pdfText(spanish)).toContain('Datos de auditoría')
  })

  it('runs at the lowest priority, and leaves the rest of the server at its own', async () => {
    const before = os.getPriority()
    await pdfs.make(document)
    expect(os.getPriority()).toBe(before)
    // the thread's own nice value, from the kernel's view of each of the process's threads
    const nices = fs
      .readdirSync('/proc/self/task')
      .map((task) => fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8'))
      .map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]))
    expect(nices).toContain(os.constants.priority.PRIORITY_LOW)
  })

  it('makes one at a time and refuses, with 503 BUSY, PDFs beyond the queue; the queue then drains', async () => {
    const asked = Array.from({ length: PDF_QUEUE_LIMIT + 5 }, () =>
      pdfs.make(document).then(
        (pdf) => checkSeal(pdf),
        (error: unknown) => error,
      ),
    )
    const answers = await Promise.all(asked)
    expect(answers.filter((answer) => answer === 'valid')).toHaveLength(PDF_QUEUE_LIMIT)
    const refused = answers.filter((answer) => answer !== 'valid')
    expect(refused).toHaveLength(5)
    expect(refused[0]).toMatchObject({
      code: 'BUSY',
      status: 503,
      message: 'too many agreement PDFs are being made right now; please try again in a minute',
    })
    expect(checkSeal(await pdfs.make(document))).toBe('valid')
  })

  it('answers a PDF that cannot be made with its reason, and makes the next', async () => {
    const broken = '<p>Signed:</p><img src="data:image/png;base64,bm90IGEgcG5n" alt="Signature">'
    await expect(pdfs.make({ ...document, html: broken })).rejects.toThrow()
    expect(checkSeal(await pdfs.make(document))).toBe('valid')
  })
})
