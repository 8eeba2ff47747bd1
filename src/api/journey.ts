/** The claim request's field carrying the pre-fill token of the link the claimant came by. */
export const JOURNEY_TOKEN_FIELD = 'journeyToken'

/** POST /api/journey/prefill: the intake's name and contact for a good link, nothing otherwise. */
export type JourneyPrefill =
  { firstName: string; lastName: string; email: string; phone: string } | Record<string, never>

/** POST /api/journey/unsubscribe: the same answer whatever the token. */
export interface Unsubscribed {
  message: string
}

export const UNSUBSCRIBED_MESSAGE =
  'You will get no more reminders from us. Messages about claims you filed (copies of what you signed, requests to correct a claim) still come.'
