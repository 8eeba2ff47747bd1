import type { RJSFSchema, ValidatorType } from '@rjsf/utils'
import type { ErrorObject } from 'ajv'
import type { FieldErrors } from './app-error.ts'

/** A property's `errorMessage`: one text for every rule, or one per ajv keyword (`required`, `pattern`...). */
type ErrorMessageSpec = string | Record<string, string>

export interface SubmissionCheck {
  isValid: boolean
  fields: FieldErrors
}

/**
 * Checks data against a form's JSON Schema and gives one message per field, taken from the
 * property's `errorMessage`. The browser and the server call it with the same schema. Text no database
 * can store as such (control characters, unpaired surrogates) is refused too, and values too big for
 * their field are refused before the schema's patterns run on them.
 * @example validateSubmission({ validator, schema, data: {} }).fields.email // { __errors: ['Email is required'] }
 */
export function validateSubmission({
  validator,
  schema,
  data,
}: {
  validator: ValidatorType
  schema: RJSFSchema
  data: unknown
}): SubmissionCheck {
  const screened = screenOversized(schema, data)
  const { errors = [], validationError } = validator.rawValidation<ErrorObject>(schema, screened.data)
  if (validationError) throw validationError
  // a map with no prototype: a field named "constructor" must not look as if it had an error already
  const fields: FieldErrors = Object.create(null) as FieldErrors
  for (const error of [...screened.errors, ...[...errors].sort(byKeywordPriority)]) {
    const field = fieldOf(error)
    if (Object.hasOwn(fields, field)) continue
    fields[field] = { __errors: [messageFor(schema, field, error)] }
  }
  for (const field of fieldsWithUnstorableText(schema, screened.data)) {
    if (!Object.hasOwn(fields, field)) fields[field] = { __errors: [unstorableTextMessage(schema, field)] }
  }
  return { isValid: Object.keys(fields).length === 0, fields }
}

/** Past this many fields the form does not have, the first ones are named and the rest are not checked. */
const MAX_UNKNOWN_FIELDS_NAMED = 20

/**
 * Takes out, before ajv sees them, the values that are wrong by their size alone: a string longer than its
 * maxLength (an email pattern backtracks quadratically on one of a few hundred KB, freezing the server for
 * minutes), an array longer than its choices allow (ajv reports every item of [1, 1, …] under allErrors,
 * seconds for a 1 MB body), and a flood of unknown fields (one message each in the answer).
 */
function screenOversized(schema: RJSFSchema, data: unknown): { data: unknown; errors: ErrorObject[] } {
  const properties = schema.properties
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !properties) {
    return { data, errors: [] }
  }
  const kept: Record<string, unknown> = {}
  const errors: ErrorObject[] = []
  let unknownFields = 0
  for (const [field, value] of Object.entries(data)) {
    const property = Object.hasOwn(properties, field) ? properties[field] : undefined
    if (property === undefined && schema.additionalProperties === false) {
      if (++unknownFields > MAX_UNKNOWN_FIELDS_NAMED) continue
    }
    const tooBig = typeof property === 'object' ? sizeError(property, field, value) : undefined
    if (tooBig) errors.push(tooBig)
    // defineProperty: a field called "__proto__" stays a field instead of becoming the prototype
    else Object.defineProperty(kept, field, { value, enumerable: true, writable: true, configurable: true })
  }
  return { data: kept, errors }
}

function sizeError(property: RJSFSchema, field: string, value: unknown): ErrorObject | undefined {
  const instancePath = `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`
  if (typeof value === 'string' && typeof property.maxLength === 'number') {
    const limit = property.maxLength
    // ajv counts code points; only a string longer in code units can be too long
    if (value.length > limit && codePointCount(value) > limit) {
      return sizeErrorObject('maxLength', instancePath, limit, `must NOT have more than ${limit} characters`)
    }
  }
  if (Array.isArray(value)) {
    const limit = Math.min(property.maxItems ?? Infinity, distinctChoiceCount(property) ?? Infinity)
    if (value.length > limit) {
      return sizeErrorObject('maxItems', instancePath, limit, `must NOT have more than ${limit} items`)
    }
  }
  return undefined
}

function sizeErrorObject(keyword: string, instancePath: string, limit: number, message: string): ErrorObject {
  return {
    keyword,
    instancePath,
    schemaPath: `#/properties${instancePath}/${keyword}`,
    params: { limit },
    message,
  }
}

/** How many items an array can hold at most when its items are distinct picks from a fixed list. */
function distinctChoiceCount(property: RJSFSchema): number | undefined {
  const items = property.items
  if (property.uniqueItems !== true || typeof items !== 'object' || Array.isArray(items)) return undefined
  if (Array.isArray(items.enum)) return items.enum.length
  const choices = items.oneOf ?? items.anyOf
  if (choices?.every((choice) => typeof choice === 'object' && 'const' in choice)) return choices.length
  return undefined
}

function codePointCount(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

// C0 controls other than tab, line feed and carriage return, DEL, and UTF-16 halves without their pair:
// PostgreSQL refuses NUL in text, and an unpaired surrogate cannot be written as UTF-8 at all. No
// lookbehind: Safari before 16.4 cannot parse one, and this module runs in the claimant's browser.
const UNSTORABLE_TEXT =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/

function fieldsWithUnstorableText(schema: RJSFSchema, data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !schema.properties) return []
  return Object.entries(data)
    .filter(([field, value]) => Object.hasOwn(schema.properties!, field) && hasUnstorableText(value))
    .map(([field]) => field)
}

function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value)
  return Array.isArray(value) && value.some((item) => typeof item === 'string' && UNSTORABLE_TEXT.test(item))
}

function unstorableTextMessage(schema: RJSFSchema, field: string): string {
  const property = schema.properties?.[field]
  const title = typeof property === 'object' && property.title ? property.title : field
  return `${title} contains a character that is not allowed (a control character or an unpaired surrogate)`
}

/** When a value breaks several rules, the most basic one speaks: a blank field is "required", not "invalid". */
const KEYWORD_PRIORITY = ['required', 'type', 'not', 'minLength']

function byKeywordPriority(a: ErrorObject, b: ErrorObject): number {
  const rank = (error: ErrorObject) => {
    const index = KEYWORD_PRIORITY.indexOf(error.keyword)
    return index === -1 ? KEYWORD_PRIORITY.length : index
  }
  return rank(a) - rank(b)
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty)
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty)
  const [, first] = error.instancePath.split('/')
  return first === undefined || first === '' ? '' : first.replace(/~1/g, '/').replace(/~0/g, '~')
}

function messageFor(schema: RJSFSchema, field: string, error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `"${field}" is not a field of this form`
  if (field === '') return `the claim ${error.message ?? 'is invalid'}`
  const property = schema.properties?.[field]
  const spec =
    typeof property === 'object' ? (property as { errorMessage?: ErrorMessageSpec }).errorMessage : undefined
  if (typeof spec === 'string') return spec
  const specific =
    (spec && Object.hasOwn(spec, error.keyword) ? spec[error.keyword] : undefined) ?? spec?.default
  if (specific) return specific
  const title = typeof property === 'object' && property.title ? property.title : field
  return `${title} ${error.message ?? 'is invalid'}`
}
