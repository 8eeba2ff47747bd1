import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { plainAddPlaceholder } from '@signpdf/placeholder-plain'
import { SignPdf, Signer } from '@signpdf/signpdf'
import forge from 'node-forge'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { renderAgreementPdf } from './agreement-pdf.ts'
import { MAX_TIMESTAMP_TOKEN_BYTES, timestampSignature } from './timestamp-signature.ts'
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../private-files.ts'
import { DAY_MS } from '../../src/durations.ts'

/** The certificate file made on first start when the firm gives none (PDF_SIGNING_P12). */
export const PDF_SIGNING_FILE = 'pdf-signing.p12'

/**
 * Seals a PDF with the firm's certificate: any PDF reader then shows whether the file was changed. The
 * seal's time is when it was made (the agreement's own signing time is in the document's text); with a
 * TSA, a time-stamp token vouches for that time.
 */
export interface PdfSealer {
  seal(pdf: Buffer): Promise<SealedPdf>
}

export interface SealedPdf {
  pdf: Buffer
  /** Why the seal has no time-stamp token though TSA_URL is set (the TSA was down or answered badly). */
  timestampProblem: string | undefined
}

/** @signpdf's own default: room for the signature and the firm's certificate chain. */
const SIGNATURE_LENGTH = 8192

/** The firm's PKCS#12 certificate and key, and the passphrase that opens it. */
export interface PdfCertificate {
  p12: Buffer
  passphrase: string
}

/**
 * The firm's PKCS#12 certificate and key: PDF_SIGNING_P12 (with PDF_SIGNING_PASSPHRASE), else
 * DATA_DIR/pdf-signing.p12, a self-signed certificate in the firm's name made on first start (mode
 * 0600, no passphrase; back it up with the evidence key). A reader shows a self-signed seal as valid
 * but from an unknown signer; a firm that wants its name trusted gives a certificate from a CA.
 */
export function loadPdfCertificate({
  pdfSigningP12: file,
  pdfSigningPassphrase: passphrase = '',
  dataDir,
}: {
  pdfSigningP12: string | undefined
  pdfSigningPassphrase?: string | undefined
  dataDir: string
}): PdfCertificate {
  const p12 = file === undefined ? selfSignedP12(dataDir) : fs.readFileSync(file)
  try {
    openCertificate({ p12, passphrase })
  } catch (error) {
    // at start-up, not at a claimant's first download
    throw new Error(
      `the PDF certificate ${file ?? PDF_SIGNING_FILE} cannot be opened${file ? ' with PDF_SIGNING_PASSPHRASE' : ''}: ${(error as Error).message}`,
    )
  }
  return { p12, passphrase }
}

/**
 * Seals PDFs with the certificate loadPdfCertificate opened and, with `tsaUrl` (TSA_URL), the RFC 3161
 * token of that time-stamp authority. A TSA that is down or answers badly costs the seal its token, not
 * the claimant their download: the PDF is sealed without it and the reason returned for the log.
 */
export function pdfSealer(
  certificate: PdfCertificate,
  { tsaUrl }: { tsaUrl?: string | undefined } = {},
): PdfSealer {
  const firm = openCertificate(certificate)
  return {
    async seal(pdf) {
      const sealedAt = new Date()
      const withPlaceholder = plainAddPlaceholder({
        pdfBuffer: pdf,
        reason: 'The agreement as signed and stored',
        contactInfo: FIRM_SETTINGS.contactEmail,
        name: FIRM_SETTINGS.firmName,
        location: FIRM_SETTINGS.firmName,
        signingTime: sealedAt,
        signatureLength: tsaUrl ? SIGNATURE_LENGTH + MAX_TIMESTAMP_TOKEN_BYTES : SIGNATURE_LENGTH,
      })
      // one signer per PDF: it keeps the reason its seal has no time-stamp
      const signer = new FirmSigner(firm, tsaUrl)
      const sealed = await new SignPdf().sign(withPlaceholder, signer, sealedAt)
      return { pdf: sealed, timestampProblem: signer.timestampProblem }
    },
  }
}

/** The firm's certificate chain and key, opened for signing. */
interface OpenedCertificate {
  /** Every certificate in the file, carried in each signature. */
  certificates: forge.pki.Certificate[]
  /** The one whose public key matches the private key: it names the signer. */
  signerCertificate: forge.pki.Certificate
  key: crypto.KeyObject
}

/**
 * Opens the PKCS#12 file once for every seal a sealer makes: opening it (a key derivation and 3DES in
 * JavaScript) and signing with forge's JavaScript RSA cost more than the rest of a seal; the key goes to
 * node's crypto, which signs in a fraction of that.
 */
function openCertificate({ p12, passphrase }: PdfCertificate): OpenedCertificate {
  const opened = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, passphrase)
  const { certBag, pkcs8ShroudedKeyBag } = forge.pki.oids as Record<string, string>
  const certificates = (opened.getBags({ bagType: certBag! })[certBag!] ?? []).flatMap((bag) =>
    bag.cert ? [bag.cert] : [],
  )
  const privateKey = opened.getBags({ bagType: pkcs8ShroudedKeyBag! })[pkcs8ShroudedKeyBag!]?.[0]?.key as
    forge.pki.rsa.PrivateKey | undefined
  if (!privateKey) throw new Error('the PDF certificate holds no private key')
  const signerCertificate = certificates.find((certificate) => {
    const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey
    return privateKey.n.compareTo(publicKey.n) === 0 && privateKey.e.compareTo(publicKey.e) === 0
  })
  if (!signerCertificate) throw new Error('the PDF certificate holds no certificate for its private key')
  return {
    certificates,
    signerCertificate,
    key: crypto.createPrivateKey(forge.pki.privateKeyToPem(privateKey)),
  }
}

/** DigestInfo's DER before the digest, for SHA-256 (RFC 8017 section 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex')

/**
 * The detached CMS signature Adobe.PPKLite's adbe.pkcs7.detached expects (SHA-256, the attributes
 * contentType, signingTime and messageDigest in that order, which EU validators check), as @signpdf's
 * P12Signer makes it; with the TSA's token over it when there is a TSA and it answers.
 */
class FirmSigner extends Signer {
  timestampProblem: string | undefined

  constructor(
    private readonly firm: OpenedCertificate,
    private readonly tsaUrl: string | undefined,
  ) {
    super()
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    const { oids } = forge.pki
    const signed = forge.pkcs7.createSignedData()
    signed.content = forge.util.createBuffer(pdf.toString('binary'))
    for (const certificate of this.firm.certificates) signed.addCertificate(certificate)
    const { key } = this.firm
    signed.addSigner({
      // forge asks the key for a PKCS#1 v1.5 signature of the attributes' digest: node's crypto makes it
      key: {
        sign: (md: forge.md.MessageDigest) =>
          crypto
            .privateEncrypt(
              { key, padding: crypto.constants.RSA_PKCS1_PADDING },
              Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')]),
            )
            .toString('binary'),
      } as unknown as forge.pki.rsa.PrivateKey,
      certificate: this.firm.signerCertificate,
      digestAlgorithm: oids.sha256!,
      authenticatedAttributes: [
        { type: oids.contentType!, value: oids.data },
        { type: oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: oids.messageDigest! },
      ],
    })
    signed.sign({ detached: true })
    const cms = Buffer.from(forge.asn1.toDer(signed.toAsn1()).getBytes(), 'binary')
    if (this.tsaUrl === undefined) return cms
    try {
      return await timestampSignature({ cms, tsaUrl: this.tsaUrl })
    } catch (error) {
      this.timestampProblem = error instanceof Error ? error.message : String(error)
      return cms
    }
  }
}

function selfSignedP12(dataDir: string): Buffer {
  const target = path.join(dataDir, PDF_SIGNING_FILE)
  if (fs.existsSync(target)) return fs.readFileSync(target)
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString())
  const certificate = forge.pki.createCertificate()
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  )
  certificate.serialNumber = `01${crypto.randomBytes(15).toString('hex')}`
  certificate.validity.notBefore = new Date()
  certificate.validity.notAfter = new Date(Date.now() + 20 * 365 * DAY_MS)
  const name = [
    { name: 'commonName', value: `${FIRM_SETTINGS.firmName} signed agreements` },
    { name: 'organizationName', value: FIRM_SETTINGS.firmName },
  ]
  certificate.setSubject(name)
  certificate.setIssuer(name)
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ])
  certificate.sign(key, forge.md.sha256.create())
  const der = forge.asn1
    .toDer(forge.pkcs12.toPkcs12Asn1(key, [certificate], '', { algorithm: '3des' }))
    .getBytes()
  const bytes = Buffer.from(der, 'binary')
  makePrivateFolder(dataDir)
  // written whole under another name, then linked: a process starting at the same moment reads a whole file
  const draft = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
  fs.writeFileSync(draft, bytes, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
  try {
    fs.linkSync(draft, target)
    return bytes
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return fs.readFileSync(target)
  } finally {
    fs.rmSync(draft, { force: true })
  }
}

/** The agreement's PDF as every download gives it: rendered (with its signing time), then sealed now. */
export async function sealedAgreementPdf(
  sealer: PdfSealer,
  document: Parameters<typeof renderAgreementPdf>[0],
): Promise<SealedPdf> {
  return sealer.seal(await renderAgreementPdf(document))
}
