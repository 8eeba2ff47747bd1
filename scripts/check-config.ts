import path from 'node:path'
import { AgreementSourcesError } from '../server/agreements/agreement-sources.ts'
import { loadAgreementTemplates } from '../server/agreements/agreement-templates.ts'
import { FormConfigError, loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../server/forms/load-intake-config.ts'
import { loadLanguages } from '../server/forms/languages.ts'
import { loadReviewConfig, loadReviews, REVIEW_CONFIG_FILE } from '../server/lifecycle/load-review-config.ts'
import { loadFilings } from '../server/filing/load-filing-config.ts'
import { loadJourneyConfig } from '../server/journey/journey-config.ts'
import { loadPayoutsConfigs } from '../server/payouts/load-payouts-config.ts'
import type { ReviewConfig } from '../src/review-config.ts'
import { LOCALES } from '../src/translate.ts'

// npm run check-config: the configs in FORMS_DIR (default forms/) as the server reads them at start-up,
// and every text without a translation, one line each. The server starts without a translation (the
// form is then offered in English only); this exits 1 for a firm whose CI wants every text translated.
const formsDir = path.resolve(process.env.FORMS_DIR ?? 'forms')
try {
  const templates = loadAgreementTemplates()
  const forms = loadFormConfigs(formsDir, { agreementTemplates: templates })
  const intake = loadIntakeConfig(formsDir, { agreementTemplates: templates })
  const base = loadReviewConfig(formsDir)
  const reviews = loadReviews(formsDir, forms.keys(), base)
  loadJourneyConfig(formsDir)
  loadFilings(formsDir, forms.keys())
  loadPayoutsConfigs(formsDir, forms.keys())
  const folder = path.basename(formsDir)
  // the base's reasons, and each app's whose review differs from it (under its "review")
  const reviewed: [string, ReviewConfig][] = [
    [`${path.join(folder, REVIEW_CONFIG_FILE)}: `, base],
    ...[...forms.keys()]
      .filter((app) => reviews(app) !== base)
      .map((app): [string, ReviewConfig] => [`${path.join(folder, `${app}.json`)}: /review`, reviews(app)]),
  ]
  const warnings = [
    ...loadLanguages({ formsDir, forms, intake }).warnings,
    ...reviewed.flatMap(([where, review]) =>
      Object.entries(review.reasons).flatMap(([name, reason]) =>
        reason.freeText
          ? []
          : LOCALES.filter((locale) => !reason.text?.[locale]).map(
              (locale) => `${where}/reasons/${name}/text: no ${locale} text for the claimant`,
            ),
      ),
    ),
  ]
  if (warnings.length > 0) {
    console.error(`incomplete translations:\n${warnings.map((warning) => `  ${warning}`).join('\n')}`)
    process.exit(1)
  }
  console.log(
    `${forms.size} apps, the intake, the review and the filing: every text in ${LOCALES.join(', ')}`,
  )
} catch (error) {
  if (!(error instanceof FormConfigError || error instanceof AgreementSourcesError)) throw error
  console.error(error.message)
  process.exit(1)
}
