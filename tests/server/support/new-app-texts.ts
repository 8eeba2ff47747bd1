import fs from 'node:fs'
import path from 'node:path'

/** The texts an app's own file holds (the rest of its texts are the shared base's). */
export interface AppTexts {
  displayName: string
  intro: string
  screenshotPrompt: string
  submitLabel: string
  success: { line: string }
}

/**
 * A new app's own texts in Spanish, for forms/es/config.json: the model app's Spanish, with the model's
 * name changed to the new app's.
 * @example spanishForNewApp({ formsDir, model: 'brigit', app: acmeCash }) // { 'Submit Acme Cash Claim': 'Enviar …' }
 */
export function spanishForNewApp({
  formsDir,
  model,
  app,
}: {
  formsDir: string
  model: string
  app: AppTexts
}): Record<string, string> {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(formsDir, file), 'utf8')) as unknown
  const spanish = read(path.join('es', 'config.json')) as Record<string, string>
  const from = read(`${model}.json`) as AppTexts
  const pairs: [string, string][] = [
    [from.intro, app.intro],
    [from.screenshotPrompt, app.screenshotPrompt],
    [from.submitLabel, app.submitLabel],
    [from.success.line, app.success.line],
  ]
  return Object.fromEntries(
    pairs.map(([english, renamed]) => {
      const known = spanish[english]
      if (known === undefined) throw new Error(`forms/es/config.json has no Spanish for "${english}"`)
      return [renamed, known.replaceAll(from.displayName, app.displayName)]
    }),
  )
}
