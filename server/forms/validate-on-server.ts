import type { RJSFSchema } from '@rjsf/utils'
import type { ErrorObject } from 'ajv'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import { claimValidator } from '../../src/claim-validator.ts'
import {
  fieldErrors,
  fieldLabel,
  validateSubmission,
  type SubmissionCheck,
} from '../../src/validate-submission.ts'

/**
 * Refuses answers the form's schema refuses (validateOnServer), with 422, every field's errors and the
 * first one as the message, its field's label first.
 */
export function assertValidOnServer(schema: RJSFSchema, data: unknown): void {
  const check = validateOnServer({ validator: claimValidator, schema, data })
  if (check.isValid) return
  const [field, { __errors }] = Object.entries(check.fields)[0] ?? ['', { __errors: ['is invalid'] }]
  throw new AppError('VALIDATION_FAILED', {
    status: 422,
    message: `${fieldLabel(schema, field)}: ${__errors[0]}`,
    fields: check.fields,
  })
}

/**
 * validateSubmission as the server runs it. Before the schema, it takes out what only a hostile client
 * sends and what would cost the server to check: values too big for their field (refused before a
 * pattern runs on them) and floods of unknown fields. After it, text no database can store as such
 * (control characters, unpaired surrogates) is refused too. The browser runs validateSubmission alone:
 * the claimant's own form never sends these, and the code stays out of the claimant's bundle.
 */
export function validateOnServer({
  validator,
  schema,
  data,
}: Parameters<typeof validateSubmission>[0]): SubmissionCheck {
  const screened = screenOversized(schema, data)
  const sized = fieldErrors(schema, screened.errors)
  const checked = validateSubmission({ validator, schema, data: screened.data })
  // the size errors speak first, then the schema's, then the characters'
  const fields: FieldErrors = Object.create(null) as FieldErrors
  for (const [field, errors] of [...Object.entries(sized.fields), ...Object.entries(checked.fields)]) {
    if (!Object.hasOwn(fields, field)) fields[field] = errors
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
// PostgreSQL refuses NUL in text, and an unpaired surrogate cannot be written as UTF-8 at all.
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
