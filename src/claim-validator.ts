import { customizeValidator } from '@rjsf/validator-ajv8'

/**
 * The one ajv-backed validator that RJSF and `validateSubmission` share, in the browser and on the server.
 * @example validateSubmission({ validator: claimValidator, schema, data })
 */
export const claimValidator = customizeValidator()
