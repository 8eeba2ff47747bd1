import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import forge from 'node-forge'
import { afterAll, describe, expect, it } from 'vitest'
import { renderAgreementPdf } from './agreement-pdf.ts'
import { checkSeal } from '../../tests/server/support/check-pdf-seal.ts'
import { loadPdfCertificate, pdfSealer, PDF_SIGNING_FILE } from './pdf-seal.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-pdf-seal-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

describe('the agreement PDF sealed with the firm certificate', () => {
  it('refuses, at start-up, a certificate it cannot open', () => {
    const bad = path.join(dataDir, 'not-a-certificate.p12')
    fs.writeFileSync(bad, 'not a PKCS#12 file')
    expect(() => loadPdfCertificate({ pdfSigningP12: bad, pdfSigningPassphrase: 'x', dataDir })).toThrow(
      `the PDF certificate ${bad} cannot be opened with PDF_SIGNING_PASSPHRASE`,
    )
  })

  it('refuses, at start-up, a certificate file whose key matches none of its certificates', () => {
    const key = (bits: number) => {
      const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: bits })
      return {
        privateKey: forge.pki.privateKeyFromPem(
          privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        ),
        publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
      }
    }
    const [signer, other] = [key(2048), key(2048)]
    const certificate = forge.pki.createCertificate()
    certificate.publicKey = other.publicKey
    certificate.serialNumber = '01'
    certificate.validity.notAfter = new Date(Date.now() + 86_400_000)
    certificate.sign(other.privateKey, forge.md.sha256.create())
    const mismatched = path.join(dataDir, 'mismatched.p12')
    fs.writeFileSync(
      mismatched,
      Buffer.from(
        forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(signer.privateKey, [certificate], 'pass')).getBytes(),
        'binary',
      ),
    )
    expect(() =>
      loadPdfCertificate({ pdfSigningP12: mismatched, pdfSigningPassphrase: 'pass', dataDir }),
    ).toThrow(
      `the PDF certificate ${mismatched} cannot be opened with PDF_SIGNING_PASSPHRASE: the PDF certificate holds no certificate for its private key`,
    )
  })

  it('makes a certificate of its own on first use (0600), then keeps it', () => {
    loadPdfCertificate({ pdfSigningP12: undefined, dataDir })
    const file = path.join(dataDir, PDF_SIGNING_FILE)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const first = fs.readFileSync(file)
    loadPdfCertificate({ pdfSigningP12: undefined, dataDir })
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
    const sealer = pdfSealer(loadPdfCertificate({ pdfSigningP12: undefined, dataDir }))
    const { pdf: sealed, timestampProblem } = await sealer.seal(pdf)
    expect(timestampProblem).toBeUndefined()
    // one sealer seals every download of the process
    expect(checkSeal((await sealer.seal(pdf)).pdf)).toBe('valid')
    expect(sealed.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(checkSeal(pdf)).toBe('no signature')
    expect(checkSeal(sealed)).toBe('valid')
    const changed = Buffer.from(sealed)
    const at = sealed.indexOf('I agree') > 0 ? sealed.indexOf('I agree') : 200
    changed[at] = changed[at]! ^ 0x01
    expect(checkSeal(changed)).toBe('the document was changed')
  })
})
