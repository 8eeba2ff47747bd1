import { FRAUD_STANDING_LABELS, type ClaimFraudStanding } from '../../../src/api/fraud.ts'

/**
 * A claim's score as the list shows it: the number, marked Hold or Review by its app's thresholds, or
 * Cleared once a decider said "Not fraud"; "Not scored yet" while its score is on its way.
 */
export function FraudScoreCell({ score, standing }: { score: number | null; standing: ClaimFraudStanding }) {
  if (score === null || standing === 'unscored') {
    return <span className="fraud-unscored">{FRAUD_STANDING_LABELS.unscored}</span>
  }
  return (
    <span className={`fraud-score fraud-${standing}`}>
      {score}
      {standing === 'clear' ? null : (
        <span className="fraud-standing"> {FRAUD_STANDING_LABELS[standing]}</span>
      )}
    </span>
  )
}
