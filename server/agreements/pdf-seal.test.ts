import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import forge from 'node-forge'
import { afterAll, describe, expect, it } from 'vitest'
import { renderAgreementPdf } from './agreement-pdf.ts'
import { loadPdfSealer, PDF_SIGNING_FILE } from './pdf-seal.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-pdf-seal-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

/**
 * What a PDF reader checks: the bytes the /ByteRange names hash to the digest the signature signs, and
 * the signature verifies with the certificate it carries. Returns why not, or 'valid'.
 */
function checkSeal(pdf: Buffer): string {
  const text = pdf.toString('latin1')
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)
  if (!range) return 'no signature'
  const [a, b, c, d] = range.slice(1).map(Number) as [number, number, number, number]
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])
  const hex = text.slice(a + b + 1, c - 1).replace(/(00)+$/, '')
  const message = forge.pkcs7.messageFromAsn1(
    forge.asn1.fromDer(Buffer.from(hex, 'hex').toString('binary')),
  ) as forge.pkcs7.PkcsSignedData & {
    rawCapture: { authenticatedAttributes: forge.asn1.Asn1[]; signature: string }
  }
  const attributes = message.rawCapture.authenticatedAttributes
  const digestAttribute = attributes.find(
    (attribute) =>
      forge.asn1.derToOid((attribute.value as forge.asn1.Asn1[])[0]!.value as string) ===
      forge.pki.oids.messageDigest!,
  )
  const digest = ((digestAttribute!.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!
    .value as string
  if (
    Buffer.from(digest, 'binary').toString('hex') !== crypto.createHash('sha256').update(signed).digest('hex')
  ) {
    return 'the document was changed'
  }
  const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes)
  const md = forge.md.sha256.create().update(forge.asn1.toDer(set).getBytes())
  const publicKey = message.certificates[0]!.publicKey as forge.pki.rsa.PublicKey
  return publicKey.verify(md.digest().bytes(), message.rawCapture.signature)
    ? 'valid'
    : 'the signature does not verify'
}

describe('the agreement PDF sealed with the firm certificate', () => {
  it('refuses, at start-up, a certificate it cannot open', () => {
    const bad = path.join(dataDir, 'not-a-certificate.p12')
    fs.writeFileSync(bad, 'not a PKCS#12 file')
    expect(() => loadPdfSealer({ file: bad, passphrase: 'x', dataDir })).toThrow(
      `the PDF certificate ${bad} cannot be opened with PDF_SIGNING_PASSPHRASE`,
    )
  })

  it('makes a certificate of its own on first use (0600), then keeps it', () => {
    loadPdfSealer({ file: undefined, dataDir })
    const file = path.join(dataDir, PDF_SIGNING_FILE)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const first = fs.readFileSync(file)
    loadPdfSealer({ file: undefined, dataDir })
    expect(fs.readFileSync(file).equals(first)).toBe(true)
  })

  it('gives a PDF whose seal verifies, and a changed byte breaks it', async () => {
    const signedAt = new Date('2026-11-22T15:04:05.000Z')
    const pdf = await renderAgreementPdf({
      html: '<h2>Agreement</h2><p>I agree to the terms.</p>',
      title: 'Brigit Attorney-Client Contingency Fee Agreement',
      audit: {
        kind: 'claim',
        id: 7,
        app: 'brigit',
        signedAt: signedAt.toISOString(),
        ipAddress: '203.0.113.7',
        userAgent: 'test',
        sha256: 'a'.repeat(64),
        templateVersion: 'v1',
        locale: 'en',
        signatureMethod: 'drawn',
        typedSignature: null,
      },
    })
    const sealer = loadPdfSealer({ file: undefined, dataDir })
    const sealed = await sealer.seal(pdf, signedAt)
    // one sealer seals every download of the process
    expect(checkSeal(await sealer.seal(pdf, signedAt))).toBe('valid')
    expect(sealed.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(checkSeal(pdf)).toBe('no signature')
    expect(checkSeal(sealed)).toBe('valid')
    const changed = Buffer.from(sealed)
    const at = sealed.indexOf('I agree') > 0 ? sealed.indexOf('I agree') : 200
    changed[at] = changed[at]! ^ 0x01
    expect(checkSeal(changed)).toBe('the document was changed')
  })
})
