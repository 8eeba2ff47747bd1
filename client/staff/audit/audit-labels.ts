/**
 * What each action of the audit log reads as on the page, all in sentence case; an action not listed
 * shows its own name in sentence case ("claim_disowned" → "Claim disowned").
 */
const ACTION_LABELS: Record<string, string> = {
  login_success: 'Signed in',
  login_failure: 'Failed sign-in',
  logout: 'Signed out',
  claim_view: "Viewed a claim's details",
  intake_view: "Viewed a main-form submission's details",
  screenshot_view: 'Viewed a screenshot',
  export: 'Exported a CSV',
  form_1099_download: 'Downloaded the 1099 file (full taxpayer numbers)',
  evidence_download: 'Downloaded evidence',
  account_invited: 'Invited an account',
  invite_resent: 'Re-sent an invitation',
  invite_accepted: 'Accepted an invitation',
  account_changed: "Changed an account's access",
  account_disabled: 'Disabled an account',
  account_enabled: 'Re-enabled an account',
  two_factor_reset: "Reset an account's two-factor sign-in",
  password_changed: 'Changed their password',
  two_factor_enabled: 'Turned on two-factor sign-in',
  two_factor_disabled: 'Turned off two-factor sign-in',
  recovery_codes_regenerated: 'Made new recovery codes',
  legal_hold_set: 'Put a record on legal hold',
  legal_hold_lifted: 'Lifted a legal hold',
  claim_moved: "Moved a claim's review",
  claim_assigned: 'Assigned a claim',
  bulk_move: 'Moved claims in bulk',
  cure_notice_sent: 'Sent a deficiency notice',
  cure_link_opened: 'Opened a cure link',
  claim_amended: 'Sent corrections to a claim',
  duplicate_cleared: 'Decided a flagged claim is not a duplicate',
  fraud_cleared: 'Decided a claim is not fraud',
  claim_disowned: 'Claim disowned by the owner of its e-mail',
  intake_disowned: 'Main-form intake disowned by the owner of its e-mail',
  batch_started: 'Started a notice or filing batch',
  payout_batch_built: 'Built a payout batch',
  payout_batch_approved: 'Approved a payout batch',
  payout_batch_sent: 'Sent a payout batch',
  payout_file_download: 'Downloaded a payout file',
  batch_sealed: 'Sealed a batch (its hashes)',
  batch_failed: 'A batch failed to build',
  batch_download: "Downloaded a batch's ZIP",
  notice_batch_sent: 'Marked notices of dispute sent',
  case_numbers_imported: "Imported a provider's case numbers",
  tracking_numbers_imported: 'Imported certified mail numbers',
  respondent_list_imported: "Imported the company's list of claimants",
  award_entered: "Entered a claim's award",
  award_corrected: "Corrected a claim's award",
  award_costs_set: "Set the costs advanced on a claim's award",
  awards_imported: "Imported a provider's awards",
  settlement_allocated: 'Shared a settlement among claims',
  payout_choice_saved: 'A claimant chose how to be paid',
  tax_form_filed: 'A claimant filed a W-9',
  webhook_created: 'Added a webhook endpoint',
  webhook_changed: 'Changed a webhook endpoint',
  webhook_deleted: 'Deleted a webhook endpoint',
  webhook_sent_again: 'Sent a webhook delivery again',
}

export function actionLabel(action: string): string {
  const label = ACTION_LABELS[action]
  if (label) return label
  const words = action.replaceAll('_', ' ')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}
