import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import forge from 'node-forge'

const { asn1 } = forge
const { Class, Type } = asn1

const OIDS = {
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  // a policy of our own: the stand-in vouches for nothing beyond the test run
  policy: '1.3.6.1.4.1.55555.3161.1',
}

/** What the stand-in answers: a token, or one of the ways a TSA can answer badly. */
export type TsaAnswer = 'granted' | 'rejection' | 'another nonce' | 'another imprint'

/** A small RFC 3161 time-stamp authority on 127.0.0.1, for tests: what TSA_URL points to. */
export interface TsaStandIn {
  url: string
  /** Its self-signed certificate (extendedKeyUsage timeStamping, critical): what its tokens verify with. */
  certificate: forge.pki.Certificate
  /** How it answers the next requests; 'granted' when started. */
  answer: TsaAnswer
  /** How many time-stamp requests it has answered. */
  readonly answered: number
  close(): Promise<void>
}

export async function startTsaStandIn(): Promise<TsaStandIn> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const certificate = tsaCertificate(privateKey, publicKey)
  let answered = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(400).end()
        return
      }
      const reply = timeStampResponse({
        request: Buffer.concat(chunks),
        answer: standIn.answer,
        privateKey,
        certificate,
      })
      answered++
      res.writeHead(200, { 'Content-Type': 'application/timestamp-reply' }).end(reply)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const standIn: TsaStandIn = {
    url: `http://127.0.0.1:${port}/tsa`,
    certificate,
    answer: 'granted',
    get answered() {
      return answered
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
  return standIn
}

function tsaCertificate(privateKey: crypto.KeyObject, publicKey: crypto.KeyObject): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate()
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  )
  certificate.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`
  certificate.validity.notBefore = new Date(Date.now() - 60_000)
  certificate.validity.notAfter = new Date(Date.now() + 24 * 60 * 60 * 1000)
  const name = [{ name: 'commonName', value: 'Test time-stamp authority' }]
  certificate.setSubject(name)
  certificate.setIssuer(name)
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
  ])
  certificate.sign(
    forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forge.md.sha256.create(),
  )
  return certificate
}

/** TimeStampResp for a DER TimeStampReq (RFC 3161 section 2.4). */
function timeStampResponse({
  request,
  answer,
  privateKey,
  certificate,
}: {
  request: Buffer
  answer: TsaAnswer
  privateKey: crypto.KeyObject
  certificate: forge.pki.Certificate
}): Buffer {
  if (answer === 'rejection') {
    return der(
      seq([
        seq([
          integer(2), // rejection
          seq([asn1.create(Class.UNIVERSAL, Type.UTF8, false, 'the stand-in refuses')]),
        ]),
      ]),
    )
  }
  const fields = asn1.fromDer(request.toString('binary')).value as forge.asn1.Asn1[]
  const messageImprint =
    answer === 'another imprint'
      ? seq([
          seq([oid(OIDS.sha256), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]),
          octets(sha256(Buffer.from('another signature'))),
        ])
      : fields[1]!
  const nonce = fields.find((field, index) => index > 1 && field.type === Type.INTEGER)
  const certReq = fields.find((field) => field.type === Type.BOOLEAN)?.value === '\xff'
  const tstInfo = der(
    seq([
      integer(1),
      oid(OIDS.policy),
      messageImprint,
      integer(crypto.randomInt(1, 2 ** 31)),
      asn1.create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(new Date())),
      ...(nonce
        ? [
            answer === 'another nonce'
              ? asn1.create(Class.UNIVERSAL, Type.INTEGER, false, '\x01\x02\x03')
              : nonce,
          ]
        : []),
    ]),
  )
  const certificateDer = der(forge.pki.certificateToAsn1(certificate))
  const signedAttributes = [
    attribute(OIDS.contentType, oid(OIDS.tstInfo)),
    attribute(OIDS.messageDigest, octets(sha256(tstInfo))),
    attribute(OIDS.signingCertificateV2, seq([seq([seq([octets(sha256(certificateDer))])])])),
  ]
  const signature = crypto.sign(
    'sha256',
    der(asn1.create(Class.UNIVERSAL, Type.SET, true, signedAttributes)),
    privateKey,
  )
  const signerInfo = seq([
    integer(1),
    seq([
      forge.pki.distinguishedNameToAsn1(certificate.issuer),
      asn1.create(Class.UNIVERSAL, Type.INTEGER, false, forge.util.hexToBytes(certificate.serialNumber)),
    ]),
    seq([oid(OIDS.sha256), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, signedAttributes),
    seq([oid(OIDS.rsaEncryption), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]),
    octets(signature),
  ])
  const signedData = seq([
    integer(3),
    asn1.create(Class.UNIVERSAL, Type.SET, true, [
      seq([oid(OIDS.sha256), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]),
    ]),
    seq([oid(OIDS.tstInfo), asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [octets(tstInfo)])]),
    ...(certReq
      ? [asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [forge.pki.certificateToAsn1(certificate)])]
      : []),
    asn1.create(Class.UNIVERSAL, Type.SET, true, [signerInfo]),
  ])
  const token = seq([oid(OIDS.signedData), asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [signedData])])
  return der(seq([seq([integer(0)]), token]))
}

function seq(value: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, value)
}

function oid(id: string): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes())
}

function integer(value: number): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(value).getBytes())
}

function octets(bytes: Buffer): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, bytes.toString('binary'))
}

function attribute(type: string, value: forge.asn1.Asn1): forge.asn1.Asn1 {
  return seq([oid(type), asn1.create(Class.UNIVERSAL, Type.SET, true, [value])])
}

function der(value: forge.asn1.Asn1): Buffer {
  return Buffer.from(asn1.toDer(value).getBytes(), 'binary')
}

function sha256(bytes: Buffer): Buffer {
  return crypto.createHash('sha256').update(bytes).digest()
}
