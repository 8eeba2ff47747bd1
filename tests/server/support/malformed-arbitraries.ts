import fc from 'fast-check'
import { makePng, pngDataUrl } from './claim-fixtures.ts'

/**
 * What malformed-claims.ts and malformed-intakes.ts build their requests from, for malformed-input.test.ts.
 *
 * A request is a valid one plus one to three faults, each in its own slot (a field, the file, the
 * Content-Type…), so two faults never cancel out and every request is wrong for a known reason. The
 * server checks a request in stages (Content-Type, multipart structure, fields of the form, the data
 * JSON, the schema, the file's bytes, the signature's bytes, the agreement date); the earliest faulty
 * stage decides the answer, and a fault says which words of the answer name it.
 */

/** One thing wrong with a request. */
export interface Fault {
  /** Which part of the request it breaks; two faults never share a slot. */
  slot: string
  /** The server's stage that finds it: the lowest stage among a request's faults answers. */
  stage: number
  /** Words of which the answer (message, field names and field messages) must contain one. */
  names: string[]
  /** A form field the answer's `fields` must list (schema stage). */
  field?: string
  /** What the fault is, for the counterexample fast-check prints. */
  label: string
}

/** A request as bytes on the wire, with what a correct answer looks like. */
export interface RawRequest {
  path: string
  headers: Record<string, string>
  body: Buffer
}

export interface Expectation {
  statuses: number[]
  names: string[]
  fields: string[]
}

/**
 * A long string that prints as a short recipe in fast-check's counterexamples; JSON.stringify writes
 * the string itself.
 */
export class LongText {
  readonly text: string
  constructor(
    readonly unit: string,
    readonly times: number,
    readonly prefix = '',
    readonly suffix = '',
  ) {
    this.text = prefix + unit.repeat(times) + suffix
  }
  toJSON(): string {
    return this.text
  }
  toString(): string {
    return this.text
  }
  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.prefix)} + ${JSON.stringify(this.unit)}.repeat(${this.times}) + ${JSON.stringify(this.suffix)}`
  }
}

/** A long list of one item, printed as a recipe like LongText. */
export class LongList {
  constructor(
    readonly item: unknown,
    readonly times: number,
  ) {}
  toJSON(): unknown[] {
    return Array<unknown>(this.times).fill(this.item)
  }
  [fc.toStringMethod](): string {
    return `Array(${this.times}).fill(${JSON.stringify(this.item)})`
  }
}

// ---------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------

/** Odd but legal text: a claimant may well be called this, so it never makes a request wrong. */
export const ODD_LEGAL_TEXT = [
  'Jose\u0301', // combining acute accent
  'Zoe\u0308\u0301', // two combining marks
  '\u202eeoD', // right-to-left override
  'Ali\u200f', // right-to-left mark
  '\u0645\u0631\u064a\u0645', // Arabic
  'J\u0430ne', // Cyrillic a, a homoglyph of Latin a
  '\u{1d42b}\u{1d41a}\u{1d427}\u{1d41e}', // mathematical bold letters
  '\u{1f469}\u200d\u{1f4bb} Jane', // emoji ZWJ sequence
  '\u{1f1fa}\u{1f1f8}', // flag
  'Jane\ufeff', // zero-width no-break space
  '\u00e9\u00e8\u00ea', // Latin-1 accents
  '\u4e2d\u6587', // CJK
  'O\u2019Brien', // typographic apostrophe
  '\ud835\udc00', // a surrogate pair, well-formed
]

/** Characters PostgreSQL or UTF-8 cannot store: NUL, other C0 controls, DEL, unpaired surrogates. */
const UNSTORABLE_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u001f',
  '\u007f',
  '\ud800',
  '\udfff',
  '\udbff',
]

export const oddLegalText = fc.constantFrom(...ODD_LEGAL_TEXT)

/** A value with an unstorable character slipped in somewhere. */
export function withUnstorable(valid: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...UNSTORABLE_CHARACTERS), fc.nat({ max: valid.length }))
    .map(([bad, at]) => valid.slice(0, at) + bad + valid.slice(at))
}

/** Any JSON value that is not a string. */
export const notAString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
)

/** Any JSON value that is not a whole number. */
export const notAnInteger = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  fc.integer({ min: 1, max: 36 }).map(String), // "3": a number in a string is still a string
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
)

/** Any JSON value that is not true or false. */
export const notABoolean = fc.oneof(
  fc.constantFrom('true', 'false', 'yes', 1, 0, null, [], {}),
  fc.string({ maxLength: 5 }),
  fc.integer(),
)

/** A string longer than `limit` code points: up to a few hundred KB, built by repetition. */
export function tooLong(limit: number, unit = 'x'): fc.Arbitrary<LongText> {
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: limit + 1, max: limit + 50 }) },
      { weight: 1, arbitrary: fc.integer({ min: limit + 1, max: 300_000 }) },
    )
    .map((times) => new LongText(unit, times))
}

const blank = fc.constantFrom('', ' ', '   ', '\t', '\n', '\u00a0', '\u2003', ' \t ')

// ---------------------------------------------------------------------------------------------------
// Field faults shared by both forms
// ---------------------------------------------------------------------------------------------------

export interface FieldFault extends Fault {
  /** The value to put in the field; undefined takes the field out. */
  value: unknown
}

export function fieldFault(field: string, label: string, value: unknown, stage: number): FieldFault {
  return { slot: `field:${field}`, stage, names: [`"${field}"`], field, label, value }
}

/** Wrong values for a required text field with a maxLength and a "not blank" rule. */
export function requiredText(
  field: string,
  valid: string,
  maxLength: number,
  stage: number,
): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    fc.constant(fieldFault(field, 'missing', undefined, stage)),
    blank.map((value) => fieldFault(field, 'blank', value, stage)),
    notAString.map((value) => fieldFault(field, 'not a string', value, stage)),
    tooLong(maxLength).map((value) => fieldFault(field, 'too long', value, stage)),
    withUnstorable(valid).map((value) => fieldFault(field, 'unstorable character', value, stage)),
  )
}

/** Strings that break the email rule: nothing@something.tld with no spaces. */
const badEmail = fc.oneof(
  fc.constantFrom(
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    'jane@@example.com',
    'jane doe@example.com',
  ),
  fc.constantFrom('jane@exa mple.com', 'jane@.', 'jane.example.com', 'j@n@e.com', 'jane@example.com\u3000x'),
  // a pattern that backtracks on every dot: quadratic time unless its length is checked first
  fc.integer({ min: 130, max: 150_000 }).map((times) => new LongText('x.', times, 'a@', ' y')),
  fc.integer({ min: 260, max: 150_000 }).map((times) => new LongText('.', times, 'a@', '@')),
  tooLong(254, 'e'),
)

export function emailFault(field: string, valid: string, stage: number): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    fc.constant(fieldFault(field, 'missing', undefined, stage)),
    blank.map((value) => fieldFault(field, 'blank', value, stage)),
    notAString.map((value) => fieldFault(field, 'not a string', value, stage)),
    badEmail.map((value) => fieldFault(field, 'not an email', value, stage)),
    withUnstorable(valid).map((value) => fieldFault(field, 'unstorable character', value, stage)),
  )
}

/** Strings without exactly ten ASCII digits, or longer than 14 characters. */
const badPhone = fc.oneof(
  fc.constantFrom(
    '',
    '555',
    '555-1234',
    '(555) 123-456',
    '555 123 45678',
    'phone',
    '() -',
    '+1 555 123 4567',
  ),
  fc.constantFrom('\uff15\uff15\uff15\uff11\uff12\uff13\uff14\uff15\uff16\uff17'), // fullwidth digits
  fc.constantFrom('\u0665\u0665\u0665\u0661\u0662\u0663\u0664\u0665\u0666\u0667'), // Arabic-Indic digits
  fc.integer({ min: 0, max: 9 }).map((digits) => '5'.repeat(digits)),
  fc.integer({ min: 11, max: 14 }).map((digits) => '5'.repeat(digits)),
  fc.integer({ min: 15, max: 200_000 }).map((times) => new LongText('5', 10, '', ' '.repeat(times))),
)

export function phoneFault(field: string, valid: string, stage: number): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    fc.constant(fieldFault(field, 'missing', undefined, stage)),
    notAString.map((value) => fieldFault(field, 'not a string', value, stage)),
    badPhone.map((value) => fieldFault(field, 'not ten digits', value, stage)),
    withUnstorable(valid).map((value) => fieldFault(field, 'unstorable character', value, stage)),
  )
}

export function integerFault(field: string, max: number, stage: number): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    fc.constant(fieldFault(field, 'missing', undefined, stage)),
    notAnInteger.map((value) => fieldFault(field, 'not an integer', value, stage)),
    fc.integer({ max: 0 }).map((value) => fieldFault(field, 'below 1', value, stage)),
    fc.integer({ min: max + 1 }).map((value) => fieldFault(field, `above ${max}`, value, stage)),
    fc.constantFrom(1e21, 1e300, -1e-7).map((value) => fieldFault(field, 'far out of range', value, stage)),
  )
}

/** Signatures the schema refuses: not a base64 PNG data URL. */
const badSignatureText = fc.oneof(
  fc.constantFrom('', 'signature', 'data:', 'data:image/png;base64,', 'data:image/png,iVBORw0KGgo='),
  fc.constantFrom(
    'data:image/jpeg;base64,/9j/4AAQ',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'javascript:alert(1)',
  ),
  fc.constantFrom('data:text/html;base64,PGgxPg==', 'DATA:IMAGE/PNG;BASE64,iVBORw0KGgo='),
  fc.constantFrom(` ${pngDataUrl()}`, `${pngDataUrl()} `, pngDataUrl().replace('base64,', 'base64, ')),
  fc.constantFrom(pngDataUrl().replace(/.$/, '!'), pngDataUrl().replace('iVBOR', 'iVB\u00d6R')),
  fc
    .integer({ min: 1_000_001 - 22, max: 1_100_000 })
    .map((times) => new LongText('A', times, 'data:image/png;base64,')),
)

/** Bytes that are not a PNG that decodes: what a forged or broken signature pad would send. */
const notAPng = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.concat([Buffer.from('nope'), bytes])),
  fc.constant(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
  fc.constant(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0])), // a JPEG's start
  fc.constant(Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;', 'latin1')),
  // a real PNG cut short, or with its pixel data or size broken
  fc.integer({ min: 8, max: 60 }).map((end) => makePng({ width: 4, height: 2 }).subarray(0, end)),
  fc.constant(corruptPngData()),
  fc.constant(hugePngHeader()),
)

function signatureContentFault(stage: number): fc.Arbitrary<FieldFault> {
  return notAPng.map((bytes) => ({
    ...fieldFault(
      'signature',
      'not a decodable PNG',
      `data:image/png;base64,${bytes.toString('base64')}`,
      stage,
    ),
    // the value passes the schema: it is refused after the file, by its bytes
  }))
}

export function signatureFault(schemaStage: number, bytesStage: number): fc.Arbitrary<FieldFault> {
  return fc.oneof(
    fc.constant(fieldFault('signature', 'missing', undefined, schemaStage)),
    notAString.map((value) => fieldFault('signature', 'not a string', value, schemaStage)),
    badSignatureText.map((value) => fieldFault('signature', 'not a PNG data URL', value, schemaStage)),
    { weight: 3, arbitrary: signatureContentFault(bytesStage) },
  )
}

/** A PNG whose compressed pixel data is garbage. */
function corruptPngData(): Buffer {
  const png = Buffer.from(makePng({ width: 4, height: 2 }))
  const idat = png.indexOf('IDAT')
  for (let i = idat + 4; i < idat + 14 && i < png.length - 12; i++) png[i] = 0xaa
  return png
}

/** A PNG claiming to be 100,000 pixels square: more than the server will decode. */
function hugePngHeader(): Buffer {
  const png = Buffer.from(makePng({ width: 4, height: 2 }))
  png.writeUInt32BE(100_000, png.indexOf('IHDR') + 4)
  png.writeUInt32BE(100_000, png.indexOf('IHDR') + 8)
  return png
}

/** Keys the form does not have, some of them named like Object's own properties. */
export function unknownFieldFault(known: readonly string[], stage: number): fc.Arbitrary<FieldFault> {
  const key = fc.oneof(
    fc.constantFrom(
      'ssn',
      'id',
      'isAdmin',
      'screenshot_key',
      'createdAt',
      'FirstName',
      'email ',
      '__proto__',
    ),
    fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', '$ref', 'a/b', '~0', 'a.b'),
    oddLegalText,
    fc.string({ minLength: 1, maxLength: 12 }),
  )
  return fc
    .tuple(
      key.filter((name) => !known.includes(name)),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), notAString),
    )
    .map(([name, value]) => ({
      slot: `extra:${name}`,
      stage,
      names: [`"${name}"`],
      field: name,
      label: 'unknown field',
      value,
    }))
}

/** Thousands of unknown fields: the answer names some, not all. */
export function unknownFieldFlood(stage: number): fc.Arbitrary<FieldFault> {
  return fc.integer({ min: 21, max: 30_000 }).map((count) => ({
    slot: 'extra:flood',
    stage,
    names: ['"extra'],
    label: 'many unknown fields',
    value: count,
  }))
}

export function applyFieldFaults(valid: Record<string, unknown>, faults: Fault[]): Record<string, unknown> {
  const data: Record<string, unknown> = { ...valid }
  // the flood goes last: the server names the first 20 unknown fields, and the others must be among them
  const floodLast = [...faults].sort(
    (a, b) => Number(a.slot === 'extra:flood') - Number(b.slot === 'extra:flood'),
  )
  for (const fault of floodLast as FieldFault[]) {
    if (fault.slot === 'extra:flood') {
      for (let i = 0; i < (fault.value as number); i++) data[`extra${i}`] = i
    } else if (fault.field !== undefined && fault.value === undefined) {
      delete data[fault.field]
    } else if (fault.field !== undefined) {
      // defineProperty: a key "__proto__" must become a field, not the object's prototype
      Object.defineProperty(data, fault.field, {
        value: fault.value,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return data
}

export function isFieldFault(fault: Fault): boolean {
  return fault.slot.startsWith('field:') || fault.slot.startsWith('extra:')
}

/** The answer the earliest faulty stage gives. */
export function expectationFor(faults: Fault[], statusOfStage: (stage: number) => number[]): Expectation {
  const stage = Math.min(...faults.map((fault) => fault.stage))
  const first = faults.filter((fault) => fault.stage === stage)
  return {
    statuses: statusOfStage(stage),
    names: first.flatMap((fault) => fault.names),
    fields: first.flatMap((fault) => (fault.field === undefined ? [] : [fault.field])),
  }
}

// ---------------------------------------------------------------------------------------------------
// Multipart
// ---------------------------------------------------------------------------------------------------

export interface Part {
  name: string
  value: Buffer
  filename?: string
  contentType?: string
}

/** A multipart/form-data body, byte for byte as a browser writes one. */
export function multipartBody(parts: Part[], boundary: string): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`
    const type = part.contentType === undefined ? '' : `\r\nContent-Type: ${part.contentType}`
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      part.value,
    )
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

/** True when JSON.parse takes the text. */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
