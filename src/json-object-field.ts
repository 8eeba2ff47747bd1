import { AppError } from './app-error.ts'

/**
 * A request field that must be a JSON object (sent as JSON text in a multipart field, or as an object
 * in a JSON body): the object, or a 400 with `message` for anything else. Cleaning its keys is the
 * caller's.
 */
export function readJsonObjectField(sent: unknown, message: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = typeof sent === 'string' ? JSON.parse(sent) : sent
  } catch {
    parsed = undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError('BAD_REQUEST', { status: 400, message })
  }
  return parsed as Record<string, unknown>
}
