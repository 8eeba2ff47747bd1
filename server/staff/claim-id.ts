import { AppError } from '../../src/app-error.ts'

/** A claim's id from a staff route's `:id`; anything but up to 15 digits is a claim that does not exist. */
export function claimIdParam(param: string): number {
  if (!/^\d{1,15}$/.test(param)) throw claimNotFound(param)
  return Number(param)
}

export function claimNotFound(id: string): AppError {
  return new AppError('NOT_FOUND', { status: 404, message: `no claim "${id}"` })
}
