import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { ClaimFraudStanding } from '../../src/api/fraud.ts'
import type { FraudCode, FraudConfig } from '../../src/fraud-config.ts'
import type { ClaimFilter } from './claim-filters.ts'

/**
 * Each standing as a condition on claims, by the app's thresholds: the held and reviewed ones are a
 * range of claims_by_fraud_score (app, fraud_score, id), the decider's "Not fraud" is read on the row.
 */
export function fraudStandingHolds(standing: ClaimFraudStanding, config: FraudConfig): RawBuilder<SqlBool> {
  const { hold, review } = config.thresholds
  const notCleared = sql<SqlBool>`claims.fraud_cleared_at IS NULL`
  switch (standing) {
    case 'hold':
      return sql<SqlBool>`(claims.fraud_score <= ${hold} AND ${notCleared})`
    case 'review':
      return sql<SqlBool>`(claims.fraud_score > ${hold} AND claims.fraud_score <= ${review} AND ${notCleared})`
    case 'clear':
      return sql<SqlBool>`(claims.fraud_score > ${review} AND ${notCleared})`
    case 'cleared':
      return sql<SqlBool>`claims.fraud_cleared_at IS NOT NULL`
    case 'unscored':
      return sql<SqlBool>`(claims.fraud_score IS NULL AND ${notCleared})`
  }
}

/** ?fraud=hold|review|clear|cleared|unscored: the claims of one standing (no counter keeps them). */
export function fraudStandingFilter(standing: ClaimFraudStanding, config: FraudConfig): ClaimFilter {
  return { label: `fraud ${standing}`, holds: fraudStandingHolds(standing, config) }
}

/** ?fraudReason=<code>: the claims one test deducted from, listed by fraud_reasons_by_code (code, claim_id). */
export function fraudReasonFilter(code: FraudCode): ClaimFilter {
  return {
    label: `fraud reason ${code}`,
    holds: sql<SqlBool>`claims.id IN (SELECT fraud_reasons.claim_id FROM fraud_reasons WHERE fraud_reasons.code = ${code})`,
  }
}
