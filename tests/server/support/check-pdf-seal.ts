import crypto from 'node:crypto'
import forge from 'node-forge'

type SignedData = forge.pkcs7.PkcsSignedData & {
  rawCapture: {
    authenticatedAttributes: forge.asn1.Asn1[]
    unauthenticatedAttributes?: forge.asn1.Asn1[]
    signature: string
  }
}

// forge's types leave out fromDer's options
const fromDer = forge.asn1.fromDer as (
  bytes: string,
  options?: { parseAllBytes?: boolean },
) => forge.asn1.Asn1

/** id-aa-signatureTimeStampToken (RFC 3161 appendix A): the TSA's token as an unsigned attribute. */
const TIMESTAMP_TOKEN_OID = '1.2.840.113549.1.9.16.2.14'

/**
 * What a PDF reader checks: the bytes the /ByteRange names hash to the digest the signature signs, and
 * the signature verifies with the certificate it carries. Returns why not, or 'valid'.
 */
export function checkSeal(pdf: Buffer): string {
  const found = findSeal(pdf)
  if (!found) return 'no signature'
  const { signed, message } = found
  const attributes = message.rawCapture.authenticatedAttributes
  const digest = attributeValue(attributes, forge.pki.oids.messageDigest!)!.value as string
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

/** What the seal's signature says beyond whether it verifies: when, and the TSA's token if any. */
export interface SealDetails {
  /** The signingTime attribute the signature covers. */
  signingTime: Date
  /** The signature's value: what a time-stamp token's messageImprint hashes. */
  signature: Buffer
  /** The id-aa-signatureTimeStampToken attribute's token (a CMS ContentInfo, DER), if the seal has one. */
  timestampToken: Buffer | undefined
}

export function sealDetails(pdf: Buffer): SealDetails {
  const found = findSeal(pdf)
  if (!found) throw new Error('the PDF has no seal')
  const { rawCapture } = found.message
  const time = attributeValue(rawCapture.authenticatedAttributes, forge.pki.oids.signingTime!)!
  const signingTime =
    time.type === forge.asn1.Type.UTCTIME
      ? forge.asn1.utcTimeToDate(time.value as string)
      : forge.asn1.generalizedTimeToDate(time.value as string)
  const token = attributeValue(rawCapture.unauthenticatedAttributes ?? [], TIMESTAMP_TOKEN_OID)
  return {
    signingTime,
    signature: Buffer.from(rawCapture.signature, 'binary'),
    timestampToken: token ? Buffer.from(forge.asn1.toDer(token).getBytes(), 'binary') : undefined,
  }
}

function findSeal(pdf: Buffer): { signed: Buffer; message: SignedData } | undefined {
  const text = pdf.toString('latin1')
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)
  if (!range) return undefined
  const [a, b, c, d] = range.slice(1).map(Number) as [number, number, number, number]
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])
  // the signature, then zeros to the end of its placeholder: read the one DER value, not the zeros
  // (a signature may itself end in a zero byte)
  const hex = text.slice(a + b + 1, c - 1)
  const message = forge.pkcs7.messageFromAsn1(
    fromDer(Buffer.from(hex, 'hex').toString('binary'), { parseAllBytes: false }),
  ) as SignedData
  return { signed, message }
}

/** The first value of the attribute of this type, from a SignerInfo's list of attributes. */
function attributeValue(attributes: forge.asn1.Asn1[], oid: string): forge.asn1.Asn1 | undefined {
  const attribute = attributes.find(
    (candidate) => forge.asn1.derToOid((candidate.value as forge.asn1.Asn1[])[0]!.value as string) === oid,
  )
  return attribute && ((attribute.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]
}

/** What an RFC 3161 time-stamp token says, and whether it verifies with the TSA's certificate. */
export interface TimestampTokenDetails {
  /** 'valid', or why not: its TSTInfo hashes to the digest it signs, and the signature verifies. */
  verdict: string
  /** The hash the TSA vouches for (TSTInfo messageImprint.hashedMessage). */
  messageImprint: Buffer
  genTime: Date
}

export function checkTimestampToken(
  token: Buffer,
  tsaCertificate: forge.pki.Certificate,
): TimestampTokenDetails {
  const contentInfo = forge.asn1.fromDer(token.toString('binary'))
  const signedData = children(children(contentInfo)[1]!)[0]!
  const [, , encapsulated, ...rest] = children(signedData)
  const tstInfoDer = children(children(encapsulated!)[1]!)[0]!.value as string
  const tstInfo = children(forge.asn1.fromDer(tstInfoDer))
  const messageImprint = Buffer.from(children(tstInfo[2]!)[1]!.value as string, 'binary')
  const genTime = forge.asn1.generalizedTimeToDate(tstInfo[4]!.value as string)
  const signerInfo = children(children(rest.at(-1)!)[0]!)
  const signedAttributes = signerInfo.find((part) => part.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC)!
  const attributes = children(signedAttributes)
  const digest = attributeValue(attributes, forge.pki.oids.messageDigest!)!.value as string
  const signature = signerInfo.find((part) => part.type === forge.asn1.Type.OCTETSTRING)!.value as string
  const verdict = (() => {
    if (
      Buffer.from(digest, 'binary').toString('hex') !==
      forge.md.sha256.create().update(tstInfoDer).digest().toHex()
    ) {
      return 'the TSTInfo does not match the digest the token signs'
    }
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes)
    const md = forge.md.sha256.create().update(forge.asn1.toDer(set).getBytes())
    const publicKey = tsaCertificate.publicKey as forge.pki.rsa.PublicKey
    return publicKey.verify(md.digest().bytes(), signature) ? 'valid' : 'the signature does not verify'
  })()
  return { verdict, messageImprint, genTime }
}

function children(value: forge.asn1.Asn1): forge.asn1.Asn1[] {
  return value.value as forge.asn1.Asn1[]
}
