import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FormConfigError } from '../forms/load-form-configs.ts'
import {
  DEMANDS_DIR,
  FILING_SCHEMA_FILE,
  loadFilings,
  NOTICES_DIR,
  PROFILE_SCHEMA_FILE,
} from './load-filing-config.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const APPS = ['earnin', 'chime']

/**
 * A copy of the project's filing config (its two schemas, base/filing.json, the APPS' files,
 * providers/, notices/ and demands/) in a folder of its own, changed by `change` before it is read.
 */
function filingWith(change: (dir: string) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'filing-config-'))
  const forms = path.join(dir, 'forms')
  fs.mkdirSync(path.join(forms, 'base'), { recursive: true })
  for (const schema of [FILING_SCHEMA_FILE, PROFILE_SCHEMA_FILE]) {
    fs.copyFileSync(path.join(FORMS_DIR, schema), path.join(forms, schema))
  }
  fs.copyFileSync(path.join(FORMS_DIR, 'base', 'filing.json'), path.join(forms, 'base', 'filing.json'))
  for (const app of APPS) {
    fs.copyFileSync(path.join(FORMS_DIR, `${app}.json`), path.join(forms, `${app}.json`))
  }
  fs.cpSync(path.join(FORMS_DIR, 'providers'), path.join(forms, 'providers'), { recursive: true })
  fs.cpSync(NOTICES_DIR, path.join(dir, 'notices'), { recursive: true })
  fs.cpSync(DEMANDS_DIR, path.join(dir, 'demands'), { recursive: true })
  change(dir)
  return () =>
    loadFilings(forms, APPS, {
      noticesDir: path.join(dir, 'notices'),
      demandsDir: path.join(dir, 'demands'),
    })
}

const edit = (file: string, change: (text: string) => string) =>
  fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')))

describe('loadFilings', () => {
  it("reads each app's respondent over the base's settings, with its provider's profile", () => {
    const filings = loadFilings(FORMS_DIR, ['earnin', 'chime'])
    const earnin = filings('earnin')
    expect(earnin.settings.respondent?.legalName).toBe('Activehours, Inc.')
    expect(earnin.settings.waitingPeriodDays).toBe(60)
    expect(earnin.profile.columns[0]).toEqual({ header: 'Unique Claimant ID', field: 'rowId' })
    expect(filings('chime').settings.respondent?.legalName).toBe('Chime Financial, Inc.')
  })

  it('refuses a notice template that does not compile, naming the file and the line', () => {
    const load = filingWith((dir) =>
      edit(
        path.join(dir, 'notices', 'notice-of-dispute.hbs'),
        (text) => `${text}\n{{#each representatives}}`,
      ),
    )
    expect(load).toThrow(
      /forms\/base\/filing\.json: \/noticeTemplate: .*notice-of-dispute\.hbs: Parse error on line \d+/,
    )
  })

  it('refuses a demand template that names a value no claim has', () => {
    const load = filingWith((dir) =>
      edit(path.join(dir, 'demands', 'demand.hbs'), (text) => `${text}{{claimant.middleName}}`),
    )
    expect(load).toThrow(/\/demandTemplate: .*demand\.hbs: "middleName" not defined/)
  })

  it("refuses an app's unknown provider, and a profile column naming a field that does not exist", () => {
    const load = filingWith((dir) => {
      edit(path.join(dir, 'forms', 'earnin.json'), (text) =>
        text.replace('"respondent": {', '"provider": "icc",\n    "respondent": {'),
      )
      edit(path.join(dir, 'forms', 'providers', 'jams.json'), (text) =>
        text.replace('"field": "fullName"', '"field": "nickname"'),
      )
    })
    expect(load).toThrow(/forms\/providers\/jams\.json: \/columns\/1\/field "nickname" is not one of "rowId"/)
    expect(load).toThrow(
      /forms\/earnin\.json: \/filing\/provider: no provider profile "icc" in forms\/providers\//,
    )
  })

  it('refuses a fee table whose tiers leave a gap, naming the profile and the tier', () => {
    const load = filingWith((dir) =>
      edit(path.join(dir, 'forms', 'providers', 'fedarb.json'), (text) =>
        text.replace(
          '"tiers": [{ "fromCase": 1, "toCase": null,',
          '"tiers": [{ "fromCase": 1, "toCase": 99, "claimantPerCase": 0, "respondentPerCase": 1 }, { "fromCase": 101, "toCase": null,',
        ),
      ),
    )
    expect(load).toThrow(/forms\/providers\/fedarb\.json: \/fees\/tiers\/1\/fromCase: is 101, should be 100/)
  })

  it("names a broken profile's problem once, in its own file, not as an unknown provider of every app", () => {
    const load = filingWith((dir) => {
      edit(path.join(dir, 'forms', 'providers', 'aaa.json'), (text) =>
        text.replace('"field": "city"', '"field": "town"'),
      )
    })
    const problems = (() => {
      try {
        load()
        return []
      } catch (error) {
        return (error as FormConfigError).problems
      }
    })()
    expect(problems).toEqual([
      expect.stringMatching(/^forms\/providers\/aaa\.json: \/columns\/5\/field "town" is not one of/),
    ])
  })
})
