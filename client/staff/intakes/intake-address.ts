/**
 * An intake's own address, /staff/intake/123: the main page's admin view with its details open. Kept
 * apart from the staff pages' chunk, as the router reads it on every page.
 */
export const INTAKE_ADDRESS = /^\/staff\/intake\/(\d{1,15})$/

export function intakeHref(id: number): string {
  return `/staff/intake/${id}`
}
