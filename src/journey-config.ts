/** forms/base/journey.json: what a claimant is sent after the intake, and when. */
export interface JourneyConfig {
  /** Days after the intake on which a reminder goes out for each chosen app still without its Step 2 claim. */
  reminderDays: number[]
  /** How long a Step 2 link in an e-mail or on the thank-you page pre-fills the form, in days. */
  linkDays: number
  /** The hours of the claimant's day (their state's time zone) in which reminders may go: [from, to). */
  sendHours: { from: number; to: number }
}

/** The claimant's journey per app as their status page and the thank-you page show it. */
export interface Step2Link {
  app: string
  appName: string
  /** The Step 2 form's path with its pre-fill token in the fragment ("/brigit#prefill=…"). */
  path: string
}

/** The reference a claimant is given for their intake, e.g. "IN-000042". */
export function intakeReference(intakeId: number): string {
  return `IN-${String(intakeId).padStart(6, '0')}`
}
