import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgreementAudit } from '../../../server/agreements/agreement-audit.ts'
import { agreementPdfThread, type AgreementPdfs } from '../../../server/agreements/agreement-pdfs.ts'
import { loadPdfCertificate } from '../../../server/agreements/pdf-seal.ts'
import { createLogger } from '../../../server/logger.ts'
import { checkSeal, checkTimestampToken, sealDetails } from '../support/check-pdf-seal.ts'
import { pdfText } from '../support/pdf-text.ts'
import { startTsaStandIn, type TsaStandIn } from '../support/tsa-stand-in.ts'

// an agreement signed long before its PDF is made, as for a claim downloaded again years on
const SIGNED_AT = '2024-03-01T10:00:00.000Z'
const audit: AgreementAudit = {
  kind: 'claim',
  id: 7,
  app: 'brigit',
  signedAt: SIGNED_AT,
  ipAddress: '203.0.113.7',
  userAgent: 'test',
  sha256: 'a'.repeat(64),
  templateVersion: 'v1',
  locale: 'en',
  signatureMethod: 'drawn',
  typedSignature: null,
}
const document = { html: '<h2>Agreement</h2><p>I agree to the terms.</p>', title: 'Brigit Agreement', audit }
const languages = { dictionary: () => undefined }

describe('the time in an agreement PDF’s seal', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-pdf-timestamp-'))
  const certificate = loadPdfCertificate({ pdfSigningP12: undefined, dataDir })
  const logLines: string[] = []
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk))
        done()
      },
    }),
  )
  // the seal's signingTime has whole seconds
  const testStart = new Date(Math.floor(Date.now() / 1000) * 1000)
  let tsa: TsaStandIn
  let downUrl: string
  const threads: AgreementPdfs[] = []
  const pdfThread = (tsaUrl?: string) => {
    const thread = agreementPdfThread({ certificate, languages, tsaUrl, logger })
    threads.push(thread)
    return thread
  }

  beforeAll(async () => {
    tsa = await startTsaStandIn()
    // a TSA that is down: the address of one that has stopped
    const stopped = await startTsaStandIn()
    downUrl = stopped.url
    await stopped.close()
  })
  afterAll(async () => {
    await Promise.all(threads.map((thread) => thread.stop()))
    await tsa?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('is the time it was sealed, while the text keeps the date the agreement was signed', async () => {
    const pdf = await pdfThread().make(document)
    expect(checkSeal(pdf)).toBe('valid')
    const seal = sealDetails(pdf)
    expect(seal.signingTime.getTime()).toBeGreaterThanOrEqual(testStart.getTime())
    expect(seal.signingTime.getTime()).toBeLessThanOrEqual(Date.now())
    expect(seal.timestampToken).toBeUndefined()
    expect(await pdfText(pdf)).toContain(SIGNED_AT)
  })

  it('with TSA_URL, is vouched for by the TSA’s token over the signature, which verifies with its certificate', async () => {
    const pdf = await pdfThread(tsa.url).make(document)
    expect(checkSeal(pdf)).toBe('valid')
    const seal = sealDetails(pdf)
    expect(seal.signingTime.getTime()).toBeGreaterThanOrEqual(testStart.getTime())
    expect(seal.timestampToken).toBeDefined()
    const token = checkTimestampToken(seal.timestampToken!, tsa.certificate)
    expect(token.verdict).toBe('valid')
    expect(token.messageImprint.toString('hex')).toBe(
      crypto.createHash('sha256').update(seal.signature).digest('hex'),
    )
    expect(token.genTime.getTime()).toBeGreaterThanOrEqual(testStart.getTime())
    expect(await pdfText(pdf)).toContain(SIGNED_AT)
  })

  it('is still sealed, without a token, when the TSA is down, and the log says why', async () => {
    const pdf = await pdfThread(downUrl).make(document)
    expect(checkSeal(pdf)).toBe('valid')
    expect(sealDetails(pdf).timestampToken).toBeUndefined()
    const logged = logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: string })
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'agreement PDF sealed without a time-stamp',
        err: expect.stringMatching(/^the TSA at http:\/\/127\.0\.0\.1:\d+ cannot be reached: ECONNREFUSED/),
      }),
    )
  })

  it('is sealed without a token when the TSA refuses, or answers for another request or another signature', async () => {
    const pdfs = pdfThread(tsa.url)
    for (const [answer, reason] of [
      ['rejection', `the TSA at ${new URL(tsa.url).origin} refused: status 2 (the stand-in refuses)`],
      ['another nonce', `the TSA at ${new URL(tsa.url).origin} answered another request (its nonce differs)`],
      [
        'another imprint',
        `the TSA at ${new URL(tsa.url).origin} answered a token for another signature (its messageImprint differs)`,
      ],
    ] as const) {
      tsa.answer = answer
      logLines.length = 0
      const pdf = await pdfs.make(document)
      expect(checkSeal(pdf)).toBe('valid')
      expect(sealDetails(pdf).timestampToken).toBeUndefined()
      expect(logLines.map((line) => JSON.parse(line) as object)).toContainEqual(
        expect.objectContaining({ msg: 'agreement PDF sealed without a time-stamp', err: reason }),
      )
    }
    tsa.answer = 'granted'
  })
})
