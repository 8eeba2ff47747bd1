import { CLAIM_MULTIPART_LIMITS } from '../../../src/api/claim-request.ts'
import fc from 'fast-check'
import { makeClaimData, makePng } from './claim-fixtures.ts'
import {
  applyFieldFaults,
  emailFault,
  integerFault,
  isFieldFault,
  LongText,
  multipartBody,
  oddLegalText,
  parsesAsJson,
  phoneFault,
  requiredText,
  signatureFault,
  unknownFieldFault,
  unknownFieldFlood,
  type Fault,
  type Part,
  type RawRequest,
} from './malformed-arbitraries.ts'

// Malformed Step 2 claims (POST /api/forms/:slug/submissions), for malformed-input.test.ts.

/** The server's stages for a claim, in the order it checks them. */
export const CLAIM_STAGE = {
  contentType: 0,
  multipart: 1,
  fields: 2,
  dataField: 3,
  schema: 4,
  // checked before the bytes: the agreement the content thread renders carries the date
  agreementDate: 5,
  fileBytes: 6,
  signatureBytes: 7,
} as const

export function claimStatuses(stage: number): number[] {
  if (
    stage === CLAIM_STAGE.schema ||
    stage === CLAIM_STAGE.fileBytes ||
    stage === CLAIM_STAGE.signatureBytes
  ) {
    return [422]
  }
  return [400]
}

const CLAIM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'cashAdvanceCount',
  'membershipMonths',
  'screenshotFile',
  'signature',
] as const

const SCREENSHOT = makePng({ width: 16, height: 8 })

interface ClaimFault extends Fault {
  kind: string
  detail?: unknown
}

function claimFault(
  slot: string,
  stage: number,
  names: string[],
  kind: string,
  detail?: unknown,
  field?: string,
): ClaimFault {
  return { slot, stage, names, kind, label: kind, detail, ...(field === undefined ? {} : { field }) }
}

const S = CLAIM_STAGE

/** Requests that are not multipart/form-data with a boundary. */
const claimContentTypeFault = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'none',
        'multipart/mixed',
        'multipart/related',
        'multipart/alternative',
        'multipart/form-data; boundary=',
        'image/png',
        'application/octet-stream',
        'form-data',
        'multipart',
        'text/html; charset=utf-8',
      )
      .map((type) => claimFault('contentType', S.contentType, ['Content-Type'], type)),
  },
  {
    weight: 2,
    arbitrary: fc
      .string({ minLength: 1, maxLength: 40, unit: 'binary-ascii' })
      // printable only: Node refuses to send a header with control characters
      .filter((type) => /^[\x20-\x7e]+$/.test(type) && !/^\s*multipart\/form-data/i.test(type))
      .map((type) => claimFault('contentType', S.contentType, ['Content-Type'], 'random', type)),
  },
  fc.constant(claimFault('contentType', S.contentType, ['boundary'], 'multipart/form-data without boundary')),
)

/** Multipart bodies that do not parse. */
const brokenMultipartFault = fc.oneof(
  fc.constant(claimFault('multipart', S.multipart, ['multipart'], 'boundary differs from the header')),
  fc
    .double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
    .map((at) => claimFault('multipart', S.multipart, ['multipart'], 'truncated', at)),
  fc.constant(claimFault('multipart', S.multipart, ['multipart'], 'no closing boundary')),
  fc.constant(claimFault('multipart', S.multipart, ['multipart'], 'part headers over 16 KB')),
  fc.constant(claimFault('multipart', S.multipart, ['multipart'], 'LF line endings')),
  fc.constant(claimFault('multipart', S.multipart, ['multipart'], 'part header without colon')),
)

/** Files where the one screenshot should be. */
const fileFault = fc.oneof(
  fc
    .constantFrom('file', 'image', 'screenshotFile', 'Screenshot', 'upload', 'data', 'agreementDate')
    .map((name) => claimFault('file', S.multipart, [`"${name}"`], 'file in the wrong field', name)),
  fc
    .integer({ min: 2, max: 3 })
    .map((count) => claimFault('file', S.multipart, ['files'], 'several screenshots', count)),
  fc.constant(claimFault('file', S.schema, ['"screenshotFile"'], 'no file', undefined, 'screenshotFile')),
  fc
    .constantFrom('text', 'html', 'svg', 'pdf', 'zip', 'empty', 'png name on text')
    .map((kind) => claimFault('file', S.fileBytes, ['"screenshotFile"'], 'file is not an image', kind)),
  fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) =>
      claimFault('file', S.fileBytes, ['"screenshotFile"'], 'random bytes', Buffer.from(bytes)),
    ),
)

const NOT_IMAGES: Record<string, Buffer> = {
  text: Buffer.from('my bank statement, typed out\n'),
  html: Buffer.from('<!doctype html><html><body><img src=x onerror=alert(1)></body></html>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
  zip: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]),
  empty: Buffer.alloc(0),
  'png name on text': Buffer.from('this is not a png'),
}

/** Text fields around `data`: unknown, duplicated, bracketed, or too many. */
const fieldsFault = fc.oneof(
  fc
    .constantFrom(
      'agreementdate',
      'Data',
      'json',
      'claim',
      'email',
      'signature',
      'screenshotFile',
      'constructor',
    )
    .map((name) => claimFault('fields', S.fields, [`"${name}"`], 'unknown field', name)),
  fc.constant(claimFault('fields', S.fields, ['"screenshot"'], 'screenshot sent as text')),
  fc.constant(claimFault('fields', S.fields, ['"data"'], 'data sent twice')),
  fc.constant(claimFault('fields', S.fields, ['"agreementDate"'], 'agreementDate sent twice')),
  fc
    .constantFrom('data[]', 'data[0]', 'data[x]')
    .map((name) => claimFault('fields', S.fields, ['"data"'], 'bracketed data', name)),
  fc.constant(claimFault('fields', S.multipart, ['fields'], 'more fields than allowed')),
  fc.constant(claimFault('fields', S.multipart, ['field name'], 'field without a name')),
)

/** `data` that is absent, not JSON, or not an object. */
const dataFault = fc.oneof(
  fc.constant(claimFault('data', S.dataField, ['"data"'], 'no data field')),
  fc
    .constantFrom(
      '',
      '{',
      '{"firstName": "Jane",',
      "{'firstName': 'Jane'}",
      '{firstName: "Jane"}',
      '{"firstName": "Jane",}',
      'undefined',
      'NaN',
      '\ufeff{}',
      '{"a": 1} // comment',
      '{"a": 01}',
      '{"a": "\u0000"}',
    )
    .map((text) => claimFault('data', S.dataField, ['"data"'], 'not JSON', text)),
  fc
    .string({ maxLength: 30 })
    .filter((text) => !parsesAsJson(text))
    .map((text) => claimFault('data', S.dataField, ['"data"'], 'not JSON', text)),
  fc
    .oneof(
      fc.constantFrom('null', '[]', '42', '"claim"', 'true', '-0', '1e400'),
      fc.constant(JSON.stringify([makeClaimData()])),
      fc
        .jsonValue({ maxDepth: 2 })
        .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
        .map((value) => JSON.stringify(value)),
    )
    .map((text) => claimFault('data', S.dataField, ['"data"'], 'not an object', text)),
)

/** Dates other than the claimant's today (today in UTC, or one day either side). */
function agreementDateFault(today: () => Date): fc.Arbitrary<ClaimFault> {
  const aroundToday = () => [-1, 0, 1].map((days) => isoDate(today(), days))
  return fc
    .oneof(
      fc.constantFrom('yesterday', 'today', '2024-02-30', '2026-13-01', '0000-00-00', '12/31/2026', 'null'),
      // three days or more away: still wrong if the date turns between generating and sending
      fc.integer({ min: 3, max: 5000 }).map((days) => isoDate(today(), days)),
      fc.integer({ min: 3, max: 5000 }).map((days) => isoDate(today(), -days)),
      fc.integer({ min: -1, max: 1 }).map((days) => `${isoDate(today(), days)}T00:00:00Z`),
      fc.integer({ min: -1, max: 1 }).map((days) => ` ${isoDate(today(), days)}`),
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom('\u0661\u0669\u0669\u0660-01-01', new LongText('2', 5000)),
    )
    .filter((value) => !aroundToday().includes(String(value)))
    .map((value) => claimFault('agreementDate', S.agreementDate, ['"agreementDate"'], 'not today', value))
}

function isoDate(from: Date, days: number): string {
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
}

/** Faults in the claim's JSON, one field each. */
const claimFieldFault: fc.Arbitrary<Fault> = fc.oneof(
  requiredText('firstName', 'Jane', 100, S.schema),
  requiredText('lastName', 'Doe', 100, S.schema),
  emailFault('email', 'jane.doe@example.com', S.schema),
  phoneFault('phoneNumber', '(555) 223-4567', S.schema),
  integerFault('cashAdvanceCount', 100, S.schema),
  integerFault('membershipMonths', 36, S.schema),
  { weight: 2, arbitrary: signatureFault(S.schema, S.signatureBytes) },
  unknownFieldFault(CLAIM_FIELDS, S.schema),
  { weight: 1, arbitrary: unknownFieldFlood(S.schema) },
)

export interface ClaimCase {
  slug: string
  faults: Fault[]
  /** Odd but legal names the claimant might have; never a fault. */
  names: { firstName: string; lastName: string }
}

/** A Step 2 claim for one of `slugs` with one to three faults in distinct slots. */
export function malformedClaim(slugs: readonly string[], today: () => Date): fc.Arbitrary<ClaimCase> {
  const anyFault = fc.oneof(
    { weight: 2, arbitrary: claimContentTypeFault },
    { weight: 2, arbitrary: brokenMultipartFault },
    { weight: 3, arbitrary: fileFault },
    { weight: 2, arbitrary: fieldsFault },
    { weight: 2, arbitrary: dataFault },
    { weight: 10, arbitrary: claimFieldFault },
    { weight: 2, arbitrary: agreementDateFault(today) },
  )
  return fc.record({
    slug: fc.constantFrom(...slugs),
    faults: fc.uniqueArray(anyFault, { minLength: 1, maxLength: 3, selector: (fault) => fault.slot }),
    names: fc.record({
      firstName: fc.oneof(fc.constant('Jane'), oddLegalText),
      lastName: fc.oneof(fc.constant('Doe'), oddLegalText),
    }),
  })
}

/** multer's limit on a text field (upload-middleware.ts). */
const MAX_FIELD_BYTES = 2 * 1024 * 1024

/**
 * The bytes of a claim request with its faults applied, and its faults: those of the case, plus a
 * `data` field over multer's limit when the generated values add up to one.
 */
export function buildClaimRequest(
  claim: ClaimCase,
  phoneNumber: string,
  today: Date,
): { request: RawRequest; faults: Fault[] } {
  const faults = claim.faults as ClaimFault[]
  const find = (slot: string) => faults.find((fault) => fault.slot === slot)
  const valid = makeClaimData({ ...claim.names, phoneNumber })
  const data = applyFieldFaults(valid, faults.filter(isFieldFault))
  const dataFaultFound = find('data')
  const dataText =
    dataFaultFound === undefined || dataFaultFound.kind === 'no data field'
      ? JSON.stringify(data)
      : String(dataFaultFound.detail)

  const parts: Part[] = []
  if (dataFaultFound?.kind !== 'no data field') parts.push({ name: 'data', value: Buffer.from(dataText) })
  const dateFault = find('agreementDate')
  const agreementDate = dateFault === undefined ? isoDate(today, 0) : String(dateFault.detail)
  parts.push({ name: 'agreementDate', value: Buffer.from(agreementDate) })
  addFieldsFault(parts, find('fields'), dataText)
  addFile(parts, find('file'))

  const boundary = `----claimtest${phoneNumber.replace(/\D/g, '')}x7MA4YWxkTrZu0gW`
  let body = multipartBody(parts, boundary)
  let contentType: string | undefined = `multipart/form-data; boundary=${boundary}`
  const multipartFault = find('multipart')
  if (multipartFault) ({ body, contentType } = breakMultipart(body, boundary, multipartFault))

  const typeFault = find('contentType')
  if (typeFault) ({ body, contentType } = wrongContentType(typeFault, { body, boundary, dataText }))
  const oversized =
    dataFaultFound?.kind !== 'no data field' && Buffer.byteLength(dataText) > MAX_FIELD_BYTES
      ? [claimFault('derived', S.multipart, ['too long'], 'data field over 2 MB')]
      : []
  return {
    request: {
      path: `/api/forms/${claim.slug}/submissions`,
      headers: contentType === undefined ? {} : { 'Content-Type': contentType },
      body,
    },
    faults: [...claim.faults, ...oversized],
  }
}

function addFieldsFault(parts: Part[], fault: ClaimFault | undefined, dataText: string): void {
  if (!fault) return
  const text = (name: string, value: string) => parts.push({ name, value: Buffer.from(value) })
  switch (fault.kind) {
    case 'unknown field':
      return void text(String(fault.detail), 'x')
    case 'screenshot sent as text':
      return void text('screenshot', 'statement.png')
    case 'data sent twice':
      while (parts.filter((part) => part.name === 'data').length < 2) text('data', dataText)
      return
    case 'agreementDate sent twice':
      return void text('agreementDate', 'also today')
    case 'bracketed data': {
      const data = parts.find((part) => part.name === 'data')
      if (data) data.name = String(fault.detail)
      else text(String(fault.detail), dataText)
      return
    }
    case 'more fields than allowed':
      // beside data and agreementDate, as many again as the claim's limit: over it whatever the limit is
      for (let i = 0; i < CLAIM_MULTIPART_LIMITS.fields; i++) text(`note${i}`, 'x')
      return
    case 'field without a name':
      return void text('', 'x')
  }
}

function addFile(parts: Part[], fault: ClaimFault | undefined): void {
  const screenshot = (name: string, value: Buffer, filename = 'statement.png') =>
    parts.push({ name, value, filename, contentType: 'image/png' })
  if (!fault) return void screenshot('screenshot', SCREENSHOT)
  switch (fault.kind) {
    case 'file in the wrong field':
      return void screenshot(String(fault.detail), SCREENSHOT)
    case 'several screenshots':
      for (let i = 0; i < (fault.detail as number); i++)
        screenshot('screenshot', SCREENSHOT, `statement-${i}.png`)
      return
    case 'no file':
      return
    case 'file is not an image':
      return void screenshot('screenshot', NOT_IMAGES[String(fault.detail)]!)
    case 'random bytes':
      // a fixed start no image format has, so random bytes can never look like one
      return void screenshot('screenshot', Buffer.concat([Buffer.from('NOTANIMAGE'), fault.detail as Buffer]))
  }
}

function breakMultipart(
  body: Buffer,
  boundary: string,
  fault: ClaimFault,
): { body: Buffer; contentType: string } {
  const contentType = `multipart/form-data; boundary=${boundary}`
  const text = body.toString('latin1')
  const closing = text.lastIndexOf(`--${boundary}--`)
  switch (fault.kind) {
    case 'boundary differs from the header':
      return { body, contentType: `multipart/form-data; boundary=Other${boundary.slice(5)}` }
    case 'truncated': {
      // keep at most "\r\n--boundary" of the closing line: without its final "--" the form never ends
      const end = Math.floor((fault.detail as number) * (closing + 2 + boundary.length))
      return { body: body.subarray(0, end), contentType }
    }
    case 'no closing boundary':
      return { body: body.subarray(0, closing), contentType }
    case 'part headers over 16 KB':
      return {
        body: Buffer.from(
          text.replace('\r\n\r\n', `\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`),
          'latin1',
        ),
        contentType,
      }
    case 'LF line endings':
      return {
        body: Buffer.from(
          text.replaceAll(`\r\n--${boundary}`, `\n--${boundary}`).replace(/^(--\S+)\r\n/, '$1\n'),
          'latin1',
        ),
        contentType,
      }
    case 'part header without colon':
      return {
        body: Buffer.from(
          text.replace('Content-Disposition: form-data', 'Content-Disposition form-data'),
          'latin1',
        ),
        contentType,
      }
  }
  throw new Error(`unknown multipart fault ${fault.kind}`)
}

function wrongContentType(
  fault: ClaimFault,
  { body, boundary, dataText }: { body: Buffer; boundary: string; dataText: string },
): { body: Buffer; contentType: string | undefined } {
  switch (fault.kind) {
    case 'application/json':
      return { body: Buffer.from(dataText), contentType: 'application/json' }
    case 'application/x-www-form-urlencoded':
      return {
        body: Buffer.from(new URLSearchParams({ data: dataText }).toString()),
        contentType: fault.kind,
      }
    case 'none':
      return { body, contentType: undefined }
    case 'multipart/mixed':
    case 'multipart/related':
    case 'multipart/alternative':
      return { body, contentType: `${fault.kind}; boundary=${boundary}` }
    case 'multipart/form-data without boundary':
      return { body, contentType: 'multipart/form-data' }
    case 'random':
      return { body, contentType: String(fault.detail) }
    default:
      return { body, contentType: fault.kind }
  }
}
