import Handlebars from 'handlebars'
import { FRAUD_TESTS, MAX_SCORE, type FraudCode, type FraudConfig } from '../../src/fraud-config.ts'

/** What each test looks at, as counsel's statement names the kinds of check. */
const CHECKED: Record<FraudCode, string> = {
  device_shared: 'device',
  device_burst: 'device',
  network_shared: 'network',
  network_burst: 'network',
  email_disposable: 'e-mail',
  email_variant: 'e-mail',
  phone_shared: 'phone',
  phone_unlikely: 'phone',
  name_near_duplicate: 'name and address',
  address_many_names: 'name and address',
  too_fast: 'behaviour',
  all_pasted: 'behaviour',
  screenshot_edited: 'screenshot',
  screenshot_size: 'screenshot',
  screenshot_duplicate: 'screenshot',
  respondent_listed: "the respondent's list",
}

/**
 * The section of counsel's affirmation or declaration on the fraud checks: the tests of the app's
 * fraud.json that are on (weight above 0), by their labels; that no claimant of the batch is at or
 * below the hold threshold without a decider's clearance (a batch takes no other: fraud-hold.ts); and
 * how many the deciders cleared.
 */
export function fraudChecksHtml({
  fraud,
  count,
  cleared,
}: {
  fraud: FraudConfig
  count: number
  /** The batch's claims a decider cleared ("Not fraud"). */
  cleared: number
}): string {
  const tests = FRAUD_TESTS.filter((code) => fraud.tests[code].weight > 0)
  const kinds = [...new Set(tests.map((code) => CHECKED[code]))]
  const listed = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}` : (kinds[0] ?? '')
  const n = (value: number) => value.toLocaleString('en-US')
  return `<section>
<h2>Fraud checks</h2>
<p>Each claimant in this batch was scored against the firm's fraud tests (${escape(listed)}): a claim starts at ${n(MAX_SCORE)} points and each test it fails deducts its points. None of the ${n(count)} claimants is at or below the hold threshold of ${n(fraud.thresholds.hold)} points without a reviewer's clearance; ${cleared === 1 ? '1 claimant was' : `${n(cleared)} claimants were`} cleared by a reviewer after review.</p>
<p>The tests, with the points each deducts:</p>
<ul>
${tests.map((code) => `<li>${escape(fraud.tests[code].label)} (${n(fraud.tests[code].weight)} points)</li>`).join('\n')}
</ul>
</section>`
}

function escape(text: string): string {
  return Handlebars.escapeExpression(text)
}
