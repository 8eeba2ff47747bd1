import crypto from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { makeNoisePng, makeSignaturePng, pngDataUrl } from '../../scripts/seed/png.ts'
import { agreementContext } from '../../src/agreement-context.ts'
import { loadAgreementTemplates } from '../agreements/agreement-templates.ts'
import { recordText, sealOf, sealOfParts, type ClaimRecord } from '../evidence/sealed-record.ts'
import {
  contentThreadChecker,
  intakeContentThreadChecker,
  releaseScreenshot,
  startContentThread,
  stopContentThreads,
  type RecordInput,
} from './claim-content.ts'

const templates = loadAgreementTemplates()
const app = { displayName: 'Brigit', slug: 'brigit' }
const answers = { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phoneNumber: '5552234567' }
const signature = pngDataUrl(makeSignaturePng())
const context = agreementContext({ app, answers: { ...answers, signature }, date: '2026-11-22' })
const checkContent = contentThreadChecker(templates)
const record: RecordInput = {
  kind: 'claim',
  app: 'brigit',
  fields: { ...answers, phoneNumber: '(555) 223-4567', cashAdvanceCount: 3, membershipMonths: 12 },
  consent: { text: 'I agree.' },
  signature: { image: signature, method: 'drawn', typedName: null },
  locale: 'en',
  signedAt: '2026-11-22T15:04:05.000Z',
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (test)',
}
const claim = (screenshot: Buffer, overrides: { signature?: string; variant?: string } = {}) =>
  checkContent({
    screenshot,
    signature,
    variant: 'full',
    locale: 'en',
    context,
    record,
    ...overrides,
  })

afterAll(() => stopContentThreads())

describe('contentThreadChecker (the content thread)', () => {
  it("renders and hashes the agreement as the server's own templates do, and hands the screenshot back whole", async () => {
    const png = makeNoisePng()
    const copy = Buffer.from(png)
    const content = await claim(png)
    const html = templates.render('full', context)
    expect(content.htmlUtf8.toString('utf8')).toBe(html)
    expect(content.htmlUtf8.toString('utf8')).toContain('Ana Lopez')
    expect(content.sha256).toBe(crypto.createHash('sha256').update(html, 'utf8').digest('hex'))
    expect(content.image).toEqual({ mime: 'image/png', extension: 'png' })
    expect(content.signature).toBe('png')
    expect(content.screenshot.equals(copy)).toBe(true)
    const screenshotSha256 = crypto.createHash('sha256').update(copy).digest('hex')
    expect(content.screenshotSha256).toBe(screenshotSha256)
    // the sealed record, once the claim's id is known, is the record the verifier rebuilds from the rows
    const sealed: ClaimRecord = {
      ...record,
      id: 42,
      agreement: { template: 'full', templateVersion: templates.version, locale: 'en', html },
      screenshot: { sha256: screenshotSha256, type: 'image/png' },
    }
    const parts = content.recordParts
    expect(Buffer.concat([parts.before, Buffer.from('42'), parts.after]).toString('utf8')).toBe(
      recordText(sealed),
    )
    expect(sealOfParts(content.recordParts, 42)).toBe(sealOf(sealed))
  })

  it('finds a screenshot that is not an image, and a signature that is not a PNG', async () => {
    const content = await claim(Buffer.from('<html><script>alert(1)</script></html>'), {
      signature: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
    })
    expect(content.image).toBeUndefined()
    expect(content.signature).toBe('not-png')
  })

  it('copies a screenshot that shares its memory with other bytes, and leaves those whole', async () => {
    const png = makeNoisePng()
    const larger = Buffer.concat([png, Buffer.from('and what follows it')])
    const content = await claim(larger.subarray(0, png.length))
    expect(content.image?.mime).toBe('image/png')
    expect(content.screenshot.equals(png)).toBe(true)
    // moved rather than copied, the larger buffer would be left empty
    expect(larger.subarray(png.length).toString()).toBe('and what follows it')
    expect(larger.subarray(0, png.length).equals(png)).toBe(true)
  })

  it("gives a stored screenshot's bytes back at once, and leaves bytes it shares memory with alone", async () => {
    const content = await claim(makeNoisePng())
    expect(content.screenshot.length).toBeGreaterThan(100_000)
    releaseScreenshot(content)
    expect(content.screenshot.length).toBe(0)
    expect(content.screenshot.buffer.byteLength).toBe(0)
    // bytes that are part of a larger buffer (Node's shared pool, say) would take their neighbours along
    const shared = Buffer.from('a neighbour|a screenshot')
    releaseScreenshot({ ...content, screenshot: shared.subarray(12) })
    expect(shared.toString()).toBe('a neighbour|a screenshot')
  })

  it('answers an unknown template with its error, and the thread goes on', async () => {
    await expect(claim(makeNoisePng(), { variant: 'no-such-template' })).rejects.toThrow(
      'agreement template "no-such-template" not found',
    )
    expect((await claim(makeNoisePng())).image?.mime).toBe('image/png')
  })

  it('starts a new thread for the next claim once its thread has been stopped', async () => {
    await startContentThread(templates)
    await stopContentThreads()
    expect((await claim(makeNoisePng())).htmlUtf8.toString('utf8')).toContain('Ana Lopez')
  })

  it("checks an intake's signature and renders its agreement in the same thread", async () => {
    const checkIntake = intakeContentThreadChecker(templates)
    const intake = await checkIntake({ signature, variant: 'full', locale: 'en', context })
    const html = templates.render('full', context)
    expect(intake).toEqual({
      signature: 'png',
      html,
      sha256: crypto.createHash('sha256').update(html, 'utf8').digest('hex'),
    })
    const svg = `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`
    expect((await checkIntake({ signature: svg, variant: 'full', locale: 'en', context })).signature).toBe(
      'not-png',
    )
  })
})
