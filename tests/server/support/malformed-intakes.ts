import fc from 'fast-check'
import { pngDataUrl } from './claim-fixtures.ts'
import {
  applyFieldFaults,
  emailFault,
  fieldFault,
  isFieldFault,
  LongList,
  multipartBody,
  notABoolean,
  notAString,
  oddLegalText,
  parsesAsJson,
  phoneFault,
  requiredText,
  signatureFault,
  tooLong,
  unknownFieldFault,
  unknownFieldFlood,
  withUnstorable,
  type Fault,
  type FieldFault,
  type RawRequest,
} from './malformed-arbitraries.ts'

// Malformed main intakes (POST /api/intake), for malformed-input.test.ts.

/** The server's stages for an intake, in the order it checks them. */
export const INTAKE_STAGE = {
  contentType: 0,
  body: 1,
  notObject: 2,
  schema: 3,
  signatureBytes: 4,
} as const

const I = INTAKE_STAGE

export function intakeStatuses(stage: number): number[] {
  if (stage === I.contentType) return [400]
  if (stage === I.body) return [400, 413, 415]
  if (stage === I.notObject) return [400]
  return [422]
}

const INTAKE_FIELDS = [
  'cashAdvanceApps',
  'feesIncurred',
  'isOver18',
  'isActiveMilitary',
  'hasBankruptcy',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'addressLine2',
  'city',
  'state',
  'zipCode',
  'signature',
  'consentAgreed',
  'communicationsConsent',
] as const

/** A valid main intake, as intake.test.ts sends it. */
export function makeIntakeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin', 'chime'],
    feesIncurred: ['Subscription Fee', 'Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane.doe@example.com',
    phone: '8085550100',
    address: '123 Kalakaua Ave',
    addressLine2: 'Apt 4',
    city: 'Honolulu',
    state: 'HI',
    zipCode: '96815',
    signature: pngDataUrl(),
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

const APPS = ['earnin', 'chime', 'moneylion', 'floatme']
const FEES = ['Subscription Fee', 'Instant Transfer Fee', 'Tips']

/** Wrong choices for a list of distinct picks (apps, fee types). */
function choicesFault(field: string, choices: string[]): fc.Arbitrary<FieldFault> {
  const stage = I.schema
  return fc.oneof(
    fc.constant(fieldFault(field, 'missing', undefined, stage)),
    fc.constant(fieldFault(field, 'empty', [], stage)),
    fc.constantFrom(...choices).map((pick) => fieldFault(field, 'picked twice', [pick, pick], stage)),
    fc
      .string({ maxLength: 12 })
      .filter((pick) => !choices.includes(pick))
      .map((pick) => fieldFault(field, 'unknown choice', [choices[0], pick], stage)),
    fc.constantFrom(...choices).map((pick) => fieldFault(field, 'other case', [pick.toUpperCase()], stage)),
    fc.constantFrom(...choices).map((pick) => fieldFault(field, 'not a list', pick, stage)),
    fc
      .constantFrom(null, 1, true, {}, [1], [null], [[choices[0]]])
      .map((value) => fieldFault(field, 'wrong type', value, stage)),
    fc.constant(fieldFault(field, 'every choice and one more', [...choices, 'Other'], stage)),
    fc
      .integer({ min: 5, max: 700_000 })
      .map((count) => fieldFault(field, 'too many items', new LongList(1, count), stage)),
    withUnstorable(choices[0]!).map((pick) => fieldFault(field, 'unstorable character', [pick], stage)),
  )
}

function booleanFault(field: string, required: boolean): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    ...(required ? [fc.constant(fieldFault(field, 'missing', undefined, I.schema))] : []),
    notABoolean.map((value) => fieldFault(field, 'not a boolean', value, I.schema)),
  )
}

const badState = fc.oneof(
  fc.constantFrom('', 'hi', 'Hawaii', 'DC', 'PR', 'GU', 'XX', 'H I', ' HI', 'HI ', '\u041dI'),
  notAString,
  withUnstorable('HI'),
)

const badZip = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '1234',
    '123456',
    'abcde',
    '12345-',
    '12345-678',
    '12 345',
    '\uff19\uff16\uff18\uff11\uff15',
  ),
  notAString,
  withUnstorable('96815'),
  tooLong(10, '9'),
)

const intakeFieldFault: fc.Arbitrary<Fault> = fc.oneof(
  choicesFault('cashAdvanceApps', APPS),
  choicesFault('feesIncurred', FEES),
  booleanFault('isOver18', true),
  booleanFault('isActiveMilitary', true),
  booleanFault('hasBankruptcy', true),
  booleanFault('communicationsConsent', false),
  fc
    .constantFrom(false, 'true', 1, null, undefined)
    .map((value) => fieldFault('consentAgreed', 'not true', value, I.schema)),
  requiredText('firstName', 'Jane', 100, I.schema),
  requiredText('lastName', 'Doe', 100, I.schema),
  requiredText('address', '123 Kalakaua Ave', 200, I.schema),
  requiredText('city', 'Honolulu', 100, I.schema),
  fc.oneof(
    notAString.map((value) => fieldFault('addressLine2', 'not a string', value, I.schema)),
    tooLong(200).map((value) => fieldFault('addressLine2', 'too long', value, I.schema)),
    withUnstorable('Apt 4').map((value) =>
      fieldFault('addressLine2', 'unstorable character', value, I.schema),
    ),
  ),
  emailFault('email', 'jane.doe@example.com', I.schema),
  phoneFault('phone', '8085550100', I.schema),
  badState.map((value) => fieldFault('state', 'not a state', value, I.schema)),
  fc.constant(fieldFault('state', 'missing', undefined, I.schema)),
  badZip.map((value) => fieldFault('zipCode', 'not a ZIP code', value, I.schema)),
  fc.constant(fieldFault('zipCode', 'missing', undefined, I.schema)),
  { weight: 3, arbitrary: signatureFault(I.schema, I.signatureBytes) },
  unknownFieldFault(INTAKE_FIELDS, I.schema),
  { weight: 1, arbitrary: unknownFieldFlood(I.schema) },
)

interface IntakeFault extends Fault {
  kind: string
  detail?: unknown
}

function intakeFault(
  slot: string,
  stage: number,
  names: string[],
  kind: string,
  detail?: unknown,
): IntakeFault {
  return { slot, stage, names, kind, label: kind, detail }
}

const intakeContentTypeFault = fc.oneof(
  fc
    .constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'none',
      'application/xml',
      'application/vnd.api+json',
      'text/json',
      'application/jsonp',
      'json',
    )
    .map((type) => intakeFault('contentType', I.contentType, ['Content-Type'], type)),
  fc
    .constantFrom('latin1', 'iso-8859-1', 'us-ascii', 'shift_jis', 'koi8-r', 'nope')
    .map((charset) => intakeFault('contentType', I.body, ['charset'], 'unsupported charset', charset)),
)

/** In the body slot: the JSON body (starting '{"') is what is not gzip, deflate or brotli data. */
const intakeEncodingFault = fc
  .constantFrom('gzip', 'deflate', 'br', 'compress', 'zz')
  .map((encoding) => intakeFault('body', I.body, ['encoding'], 'body not in its Content-Encoding', encoding))

const intakeBodyFault = fc.oneof(
  { weight: 3, arbitrary: intakeEncodingFault },
  fc
    .constantFrom(
      '{',
      '{"firstName": "Jane",',
      "{'firstName': 'Jane'}",
      '{"a": 1,}',
      'NaN',
      'undefined',
      '{"a": 1} x',
      '"\\x"',
    )
    .map((text) => intakeFault('body', I.body, ['JSON'], 'not JSON', text)),
  fc
    .string({ minLength: 1, maxLength: 40 })
    .filter((text) => !parsesAsJson(text) && text.trim() !== '')
    .map((text) => intakeFault('body', I.body, ['JSON'], 'not JSON', text)),
  // few of these: each sends 1.5 MB
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1_536_001, max: 1_700_000 })
      .map((size) => intakeFault('body', I.body, ['too large'], 'body over 1500kb', size)),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('null', '[]', '42', '"intake"', 'true', '-1.5', '[{}]')
      .map((text) => intakeFault('body', I.notObject, ['JSON object'], 'not an object', text)),
  },
)

export interface IntakeCase {
  faults: Fault[]
  names: { firstName: string; lastName: string }
}

export function malformedIntake(): fc.Arbitrary<IntakeCase> {
  const anyFault = fc.oneof(
    { weight: 2, arbitrary: intakeContentTypeFault },
    { weight: 2, arbitrary: intakeBodyFault },
    { weight: 10, arbitrary: intakeFieldFault },
  )
  return fc.record({
    faults: fc.uniqueArray(anyFault, { minLength: 1, maxLength: 3, selector: (fault) => fault.slot }),
    names: fc.record({
      firstName: fc.oneof(fc.constant('Jane'), oddLegalText),
      lastName: fc.oneof(fc.constant('Doe'), oddLegalText),
    }),
  })
}

/** express.json's limit on /api/intake (intake.routes.ts): 1500kb. */
const MAX_INTAKE_BYTES = 1500 * 1024

/**
 * The bytes of an intake request with its faults applied, and its faults: those of the case, plus a
 * body over the limit when the generated values add up to one.
 */
export function buildIntakeRequest(
  intake: IntakeCase,
  phone: string,
): { request: RawRequest; faults: Fault[] } {
  const faults = intake.faults as IntakeFault[]
  const find = (slot: string) => faults.find((fault) => fault.slot === slot)
  const data = applyFieldFaults(makeIntakeData({ ...intake.names, phone }), faults.filter(isFieldFault))
  const bodyFault = find('body')
  const headers: Record<string, string> = {}
  let text = JSON.stringify(data)
  if (bodyFault?.kind === 'body over 1500kb') {
    text = JSON.stringify({ ...data, padding: 'x'.repeat(bodyFault.detail as number) })
  } else if (bodyFault?.kind === 'body not in its Content-Encoding') {
    headers['Content-Encoding'] = String(bodyFault.detail)
  } else if (bodyFault) {
    text = String(bodyFault.detail)
  }
  let body: Buffer = Buffer.from(text)
  let contentType: string | undefined = 'application/json'
  const typeFault = find('contentType')
  switch (typeFault?.kind ?? 'application/json') {
    case 'application/json':
      break
    case 'none':
      contentType = undefined
      break
    case 'application/x-www-form-urlencoded':
      body = Buffer.from(new URLSearchParams({ data: text }).toString())
      contentType = 'application/x-www-form-urlencoded'
      break
    case 'multipart/form-data':
      body = multipartBody([{ name: 'data', value: body }], 'intakeBoundary42')
      contentType = 'multipart/form-data; boundary=intakeBoundary42'
      break
    case 'unsupported charset':
      contentType = `application/json; charset=${String(typeFault?.detail)}`
      break
    default:
      contentType = typeFault?.kind
  }
  if (contentType !== undefined) headers['Content-Type'] = contentType
  const oversized =
    Buffer.byteLength(text) > MAX_INTAKE_BYTES
      ? [intakeFault('derived', I.body, ['too large'], 'body over 1500kb')]
      : []
  return { request: { path: '/api/intake', headers, body }, faults: [...intake.faults, ...oversized] }
}
