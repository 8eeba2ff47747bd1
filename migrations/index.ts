import type { Migration } from 'kysely'
import * as createClaims from './2026_11_22_1000_create_claims.ts'
import * as createAgreementRecords from './2026_11_22_1100_create_agreement_records.ts'
import * as createStaffAccess from './2026_11_22_1200_create_staff_access.ts'
import * as createClaimSearch from './2026_11_22_1300_create_claim_search.ts'
import * as createIntake from './2026_11_22_1400_create_intake.ts'
import * as addLegalHold from './2026_11_22_1500_add_legal_hold.ts'
import * as createClaimStats from './2026_11_22_1600_create_claim_stats.ts'
import * as createAgreementCopies from './2026_11_22_1700_create_agreement_copies.ts'
import * as partitionClaimSearch from './2026_11_22_1800_partition_claim_search.ts'
import * as spaceClaimSearchMerges from './2026_11_22_1900_space_claim_search_merges.ts'
import * as addLocale from './2026_11_25_1100_add_locale.ts'
import * as addIntakeAgreement from './2026_11_25_1200_add_intake_agreement.ts'
import * as addSignatureMethod from './2026_11_25_1300_add_signature_method.ts'
import * as combineClaimSearchText from './2026_11_25_1400_combine_claim_search_text.ts'
import * as createEvidenceLedger from './2026_11_26_1000_create_evidence_ledger.ts'
import * as createProofOfWork from './2026_11_26_1100_create_proof_of_work.ts'
import * as createAgreementLinks from './2026_11_26_1200_create_agreement_links.ts'
import * as addClaimConfirmation from './2026_11_26_1300_add_claim_confirmation.ts'
import * as createScreenshotMatches from './2026_11_26_1400_create_screenshot_matches.ts'
import * as createStaffAccounts from './2026_11_27_1000_create_staff_accounts.ts'
import * as addTotpLastStep from './2026_11_27_1100_add_totp_last_step.ts'
import * as indexAuditFilters from './2026_11_27_1300_index_audit_filters.ts'
import * as addTotpSetupCode from './2026_11_27_1400_add_totp_setup_code.ts'
import * as createSignInFailures from './2026_11_28_1100_create_sign_in_failures.ts'
import * as createEvidenceDigests from './2026_11_28_1200_create_evidence_digests.ts'
import * as addClaimReview from './2026_11_28_1300_add_claim_review.ts'
import * as addClaimCures from './2026_11_28_1400_add_claim_cures.ts'
import * as indexClaimReview from './2026_11_28_1500_index_claim_review.ts'
import * as createBulkMoves from './2026_11_28_1600_create_bulk_moves.ts'
import * as createDuplicateDecisions from './2026_11_28_1700_create_duplicate_decisions.ts'
import * as indexClaimStatusById from './2026_11_28_1800_index_claim_status_by_id.ts'
import * as createClaimantJourneys from './2026_11_28_1900_create_claimant_journeys.ts'
import * as addClaimDisowned from './2026_11_28_2000_add_claim_disowned.ts'
import * as createSmsSuppressions from './2026_11_28_2100_create_sms_suppressions.ts'
import * as addIntakeConfirmation from './2026_11_28_2200_add_intake_confirmation.ts'
import * as createFilingBatches from './2026_11_29_1000_create_filing_batches.ts'
import * as createWebhooks from './2026_11_29_1100_create_webhooks.ts'
import * as addAttribution from './2026_11_29_1200_add_attribution.ts'
import * as createSmsReplies from './2026_11_29_1300_create_sms_replies.ts'
import * as createUsedPrefillTokens from './2026_12_07_1000_create_used_prefill_tokens.ts'
import * as addIntakeTies from './2026_12_07_1100_add_intake_ties.ts'
import * as addCertifiedMailNumbers from './2026_12_07_1300_add_certified_mail_numbers.ts'
import * as recheckNearScreenshotMatches from './2026_12_07_1400_recheck_near_screenshot_matches.ts'
import * as addAdoptedSignatures from './2026_12_07_1500_add_adopted_signatures.ts'
import * as countFunnelByRoles from './2026_12_07_1630_count_funnel_by_roles.ts'
import * as addJobLeases from './2026_12_08_1000_add_job_leases.ts'
import * as createFraudScores from './2026_12_09_1000_create_fraud_scores.ts'
import * as addFraudClearanceAudit from './2026_12_09_1100_add_fraud_clearance_audit.ts'
import * as countFraudBySource from './2026_12_09_1500_count_fraud_by_source.ts'
import * as indexIntakesByContact from './2026_12_09_1600_index_intakes_by_contact.ts'
import * as createPayouts from './2026_12_10_1000_create_payouts.ts'
import * as countAwardedAsApproved from './2026_12_10_1100_count_awarded_as_approved.ts'
import * as addPayoutEvents from './2026_12_10_1200_add_payout_events.ts'
import * as addAwardCosts from './2026_12_11_1000_add_award_costs.ts'

/** Every migration, by name; names sort in the order they run. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_1000_create_claims': createClaims,
  '2026_11_22_1100_create_agreement_records': createAgreementRecords,
  '2026_11_22_1200_create_staff_access': createStaffAccess,
  '2026_11_22_1300_create_claim_search': createClaimSearch,
  '2026_11_22_1400_create_intake': createIntake,
  '2026_11_22_1500_add_legal_hold': addLegalHold,
  '2026_11_22_1600_create_claim_stats': createClaimStats,
  '2026_11_22_1700_create_agreement_copies': createAgreementCopies,
  '2026_11_22_1800_partition_claim_search': partitionClaimSearch,
  '2026_11_22_1900_space_claim_search_merges': spaceClaimSearchMerges,
  '2026_11_25_1100_add_locale': addLocale,
  '2026_11_25_1200_add_intake_agreement': addIntakeAgreement,
  '2026_11_25_1300_add_signature_method': addSignatureMethod,
  '2026_11_25_1400_combine_claim_search_text': combineClaimSearchText,
  '2026_11_26_1000_create_evidence_ledger': createEvidenceLedger,
  '2026_11_26_1100_create_proof_of_work': createProofOfWork,
  '2026_11_26_1200_create_agreement_links': createAgreementLinks,
  '2026_11_26_1300_add_claim_confirmation': addClaimConfirmation,
  '2026_11_26_1400_create_screenshot_matches': createScreenshotMatches,
  '2026_11_27_1000_create_staff_accounts': createStaffAccounts,
  '2026_11_27_1100_add_totp_last_step': addTotpLastStep,
  '2026_11_27_1300_index_audit_filters': indexAuditFilters,
  '2026_11_27_1400_add_totp_setup_code': addTotpSetupCode,
  '2026_11_28_1100_create_sign_in_failures': createSignInFailures,
  '2026_11_28_1200_create_evidence_digests': createEvidenceDigests,
  '2026_11_28_1300_add_claim_review': addClaimReview,
  '2026_11_28_1400_add_claim_cures': addClaimCures,
  '2026_11_28_1500_index_claim_review': indexClaimReview,
  '2026_11_28_1600_create_bulk_moves': createBulkMoves,
  '2026_11_28_1700_create_duplicate_decisions': createDuplicateDecisions,
  '2026_11_28_1800_index_claim_status_by_id': indexClaimStatusById,
  '2026_11_28_1900_create_claimant_journeys': createClaimantJourneys,
  '2026_11_28_2000_add_claim_disowned': addClaimDisowned,
  '2026_11_28_2100_create_sms_suppressions': createSmsSuppressions,
  '2026_11_28_2200_add_intake_confirmation': addIntakeConfirmation,
  '2026_11_29_1000_create_filing_batches': createFilingBatches,
  '2026_11_29_1100_create_webhooks': createWebhooks,
  '2026_11_29_1200_add_attribution': addAttribution,
  '2026_11_29_1300_create_sms_replies': createSmsReplies,
  '2026_12_07_1000_create_used_prefill_tokens': createUsedPrefillTokens,
  '2026_12_07_1100_add_intake_ties': addIntakeTies,
  '2026_12_07_1300_add_certified_mail_numbers': addCertifiedMailNumbers,
  '2026_12_07_1400_recheck_near_screenshot_matches': recheckNearScreenshotMatches,
  '2026_12_07_1500_add_adopted_signatures': addAdoptedSignatures,
  '2026_12_07_1630_count_funnel_by_roles': countFunnelByRoles,
  '2026_12_08_1000_add_job_leases': addJobLeases,
  '2026_12_09_1000_create_fraud_scores': createFraudScores,
  '2026_12_09_1100_add_fraud_clearance_audit': addFraudClearanceAudit,
  '2026_12_09_1500_count_fraud_by_source': countFraudBySource,
  '2026_12_09_1600_index_intakes_by_contact': indexIntakesByContact,
  '2026_12_10_1000_create_payouts': createPayouts,
  '2026_12_10_1100_count_awarded_as_approved': countAwardedAsApproved,
  '2026_12_10_1200_add_payout_events': addPayoutEvents,
  '2026_12_11_1000_add_award_costs': addAwardCosts,
}
