import crypto from 'node:crypto'
import forge from 'node-forge'

const { asn1 } = forge
const { Class, Type } = asn1

const SHA256_OID = '2.16.840.1.101.3.4.2.1'
const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4'
/** id-aa-signatureTimeStampToken (RFC 3161 appendix A): a TSA's token over a CMS signature's value. */
export const TIMESTAMP_TOKEN_OID = '1.2.840.113549.1.9.16.2.14'
/** A token with the TSA's certificate is a few kilobytes; the seal's placeholder leaves room for this much. */
export const MAX_TIMESTAMP_TOKEN_BYTES = 16_384
/** PDFs are made one at a time: a TSA that hangs holds up every download behind it for this long at most. */
const TSA_TIMEOUT_MS = 10_000

// forge's types leave out fromDer's options
const fromDer = asn1.fromDer as (bytes: string, options?: { parseAllBytes?: boolean }) => forge.asn1.Asn1

/**
 * The CMS signature (DER) with the RFC 3161 token of the TSA at `tsaUrl` added to its SignerInfo as the
 * unsigned attribute id-aa-signatureTimeStampToken: the TSA vouches that the signature existed at the
 * token's time, which the signer's own signingTime cannot. Throws, saying why, when the TSA cannot be
 * reached or its answer is not a token for this signature.
 */
export async function timestampSignature({ cms, tsaUrl }: { cms: Buffer; tsaUrl: string }): Promise<Buffer> {
  const contentInfo = fromDer(cms.toString('binary'))
  const signerInfos = children(children(children(contentInfo)[1]!)[0]!).at(-1)!
  const signerInfo = children(signerInfos)[0]!
  const signature = children(signerInfo).find((part) => part.type === Type.OCTETSTRING && !part.constructed)!
  const imprint = crypto
    .createHash('sha256')
    .update(Buffer.from(signature.value as string, 'binary'))
    .digest()
  const token = await fetchTimestampToken({ tsaUrl, imprint })
  children(signerInfo).push(
    asn1.create(Class.CONTEXT_SPECIFIC, 1, true, [
      asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, [
        oid(TIMESTAMP_TOKEN_OID),
        asn1.create(Class.UNIVERSAL, Type.SET, true, [token]),
      ]),
    ]),
  )
  return Buffer.from(asn1.toDer(contentInfo).getBytes(), 'binary')
}

/** Asks the TSA for a token over the SHA-256 `imprint` (RFC 3161 section 3.4, over HTTP) and checks its answer. */
async function fetchTimestampToken({
  tsaUrl,
  imprint,
}: {
  tsaUrl: string
  imprint: Buffer
}): Promise<forge.asn1.Asn1> {
  const url = new URL(tsaUrl)
  const headers: Record<string, string> = { 'Content-Type': 'application/timestamp-query' }
  // fetch refuses a URL with a user and password: they go as Basic authentication, as TSAs take them
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`
    url.username = ''
    url.password = ''
  }
  // the log names the TSA by its origin: the path or the query may hold a key
  const tsa = `the TSA at ${url.origin}`
  const nonce = crypto.randomBytes(8)
  nonce[0] = (nonce[0]! & 0x7f) | 0x40 // positive, and no leading zero byte for DER to drop
  const request = asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(1).getBytes()),
    messageImprint(imprint),
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, nonce.toString('binary')),
    // certReq: the token carries the TSA's certificate, so a reader can check it without looking it up
    asn1.create(Class.UNIVERSAL, Type.BOOLEAN, false, '\xff'),
  ])
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: Buffer.from(asn1.toDer(request).getBytes(), 'binary'),
      signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
      redirect: 'error',
    })
  } catch (error) {
    throw new Error(`${tsa} cannot be reached: ${reason(error)}`, { cause: error })
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new Error(`${tsa} answered HTTP ${response.status}`)
  }
  let answer: Buffer
  try {
    answer = await readAtMost(response, MAX_TIMESTAMP_TOKEN_BYTES + 1024)
  } catch (error) {
    throw new Error(`${tsa} did not answer whole: ${reason(error)}`, { cause: error })
  }
  return checkedToken({ answer, imprint, nonce, tsa })
}

/** The token in a TimeStampResp, once it is known to be granted, for this imprint and this request's nonce. */
function checkedToken({
  answer,
  imprint,
  nonce,
  tsa,
}: {
  answer: Buffer
  imprint: Buffer
  nonce: Buffer
  tsa: string
}): forge.asn1.Asn1 {
  let response: forge.asn1.Asn1[]
  let tstInfo: forge.asn1.Asn1[]
  try {
    response = children(fromDer(answer.toString('binary')))
    const [status, statusText] = children(response[0]!)
    const granted = asn1.derToInteger(status!.value as string)
    // 0 granted, 1 grantedWithMods
    if (granted !== 0 && granted !== 1) {
      const text = statusText
        ? children(statusText).map((part) => forge.util.decodeUtf8(part.value as string))
        : []
      throw new TsaAnswerError(
        `${tsa} refused: status ${granted}${text.length ? ` (${text.join('; ')})` : ''}`,
      )
    }
    const signedData = children(children(children(response[1]!)[1]!)[0]!)
    const [contentType, content] = children(signedData[2]!)
    if (asn1.derToOid(contentType!.value as string) !== TST_INFO_OID) {
      throw new TsaAnswerError(`${tsa} answered a token that holds no TSTInfo`)
    }
    tstInfo = children(fromDer(children(content!)[0]!.value as string))
  } catch (error) {
    if (error instanceof TsaAnswerError) throw error
    throw new Error(
      `${tsa} answered something that is not a time-stamp response (${(error as Error).message})`,
    )
  }
  const [algorithm, hashed] = children(tstInfo[2]!)
  if (
    asn1.derToOid(children(algorithm!)[0]!.value as string) !== SHA256_OID ||
    !Buffer.from(hashed!.value as string, 'binary').equals(imprint)
  ) {
    throw new Error(`${tsa} answered a token for another signature (its messageImprint differs)`)
  }
  // after genTime (index 4): accuracy and ordering may come before the nonce
  const answeredNonce = tstInfo
    .slice(5)
    .find((part) => part.tagClass === Class.UNIVERSAL && part.type === Type.INTEGER)
  if (!answeredNonce || !Buffer.from(answeredNonce.value as string, 'binary').equals(nonce)) {
    throw new Error(`${tsa} answered another request (its nonce differs)`)
  }
  const token = response[1]!
  if (asn1.toDer(token).length() > MAX_TIMESTAMP_TOKEN_BYTES) {
    throw new Error(`${tsa} answered a token over ${MAX_TIMESTAMP_TOKEN_BYTES} bytes, too large for the seal`)
  }
  return token
}

class TsaAnswerError extends Error {}

/** A failed fetch's own reason (ECONNREFUSED, a timeout) rather than its "fetch failed". */
function reason(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } }).cause?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}

async function readAtMost(response: Response, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  if (!response.body) return Buffer.alloc(0)
  const reader = response.body.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value
    size += chunk.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new Error(`its answer is over ${limit} bytes`)
    }
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

function messageImprint(imprint: Buffer): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, [
    asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, [
      oid(SHA256_OID),
      asn1.create(Class.UNIVERSAL, Type.NULL, false, ''),
    ]),
    asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, imprint.toString('binary')),
  ])
}

function oid(id: string): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes())
}

function children(value: forge.asn1.Asn1): forge.asn1.Asn1[] {
  if (!Array.isArray(value.value)) throw new Error('a constructed value was expected')
  return value.value
}
