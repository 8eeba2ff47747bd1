/**
 * How an intake's details name the Step 2 state of each app the claimant listed: done once the app's
 * claim is in. docs/staff-dashboards.md quotes these words.
 */
export const STEP2_STATE_LABELS = {
  done: 'Step 2 done',
  notStarted: 'Step 2 not started',
} as const
