/** What a claimant is told when the public forms' limits (server/public-doors.ts) refuse a submission. */
export const PUBLIC_RATE_LIMITED_MESSAGE =
  'Too many submissions from your connection. Please wait {minutes} minutes and try again.'
export const PUBLIC_BUSY_MESSAGE =
  'The forms are receiving more submissions than they can take right now. Please wait a minute and try again.'
