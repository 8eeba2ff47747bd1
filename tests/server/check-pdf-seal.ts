import crypto from 'node:crypto'
import forge from 'node-forge'

/**
 * What a PDF reader checks: the bytes the /ByteRange names hash to the digest the signature signs, and
 * the signature verifies with the certificate it carries. Returns why not, or 'valid'.
 */
export function checkSeal(pdf: Buffer): string {
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
