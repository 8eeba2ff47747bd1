import { AppError } from '../../src/app-error.ts'
import type { useFieldMessages } from './use-field-messages.ts'

/**
 * The alert for a submit that failed on its way or that the server refused, whose messages for single
 * fields go to those fields. The form's own text (`describe`) names any other failure.
 */
export function submitFailure(
  error: unknown,
  messages: ReturnType<typeof useFieldMessages>,
  describe: (message: string) => string,
): string {
  const appError = error instanceof AppError ? error : undefined
  if (appError?.fields) messages.setServerErrors(appError.fields)
  // a duplicate, a limit, a bot refused or the proof of work says all there is to say; anything else is
  // named as an error
  return appError?.code === 'DUPLICATE_SUBMISSION' ||
    appError?.code === 'RATE_LIMITED' ||
    appError?.code === 'BOT_SUSPECTED' ||
    appError?.code.startsWith('PROOF_OF_WORK_')
    ? appError.message
    : describe(appError?.message ?? String(error))
}
