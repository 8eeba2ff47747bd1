import { customizeValidator } from '@rjsf/validator-ajv8'

/**
 * The server's ajv-backed validator for `validateSubmission`. The browser runs the same checks
 * precompiled from the same schema and ajv options (GET /api/forms/:slug/validator.js), so it never
 * compiles code and both give the same messages.
 * @example validateSubmission({ validator: claimValidator, schema, data })
 */
export const claimValidator = customizeValidator()
