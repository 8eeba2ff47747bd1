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
 * property's `errorMessage`. The browser and the server call it with the same schema (the server first
 * screens what only a hostile client sends: server/forms/validate-on-server.ts).
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
  const { errors = [], validationError } = validator.rawValidation<ErrorObject>(schema, data)
  if (validationError) throw validationError
  return fieldErrors(schema, [...errors].sort(byKeywordPriority))
}

/** One message per field, the first error of each field speaking; `isValid` when there is none. */
export function fieldErrors(schema: RJSFSchema, errors: readonly ErrorObject[]): SubmissionCheck {
  // a map with no prototype: a field named "constructor" must not look as if it had an error already
  const fields: FieldErrors = Object.create(null) as FieldErrors
  for (const error of errors) {
    const field = fieldOf(error)
    if (Object.hasOwn(fields, field)) continue
    fields[field] = { __errors: [messageFor(schema, field, error)] }
  }
  return { isValid: Object.keys(fields).length === 0, fields }
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

/**
 * The label a claimant sees for a field: its schema title (in the config's language), else its name.
 * @example fieldLabel(config.schema, 'screenshotFile') // 'Bank Statement Screenshot'
 */
export function fieldLabel(schema: RJSFSchema, field: string): string {
  const property = schema.properties?.[field]
  return typeof property === 'object' && property.title ? property.title : field
}
