import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FormConfigError } from '../forms/load-form-configs.ts'
import { loadPayoutsConfigs, PAYOUTS_CONFIG_FILE } from './load-payouts-config.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')

const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

/** A forms folder of its own holding base/payouts.json as `base` and each app's file as given. */
function formsWith(base: unknown, apps: Record<string, unknown> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payouts-config-'))
  made.push(dir)
  fs.mkdirSync(path.join(dir, 'base'))
  fs.writeFileSync(path.join(dir, PAYOUTS_CONFIG_FILE), JSON.stringify(base))
  for (const [app, config] of Object.entries(apps)) {
    fs.writeFileSync(path.join(dir, `${app}.json`), JSON.stringify(config))
  }
  return dir
}

const BASE = JSON.parse(fs.readFileSync(path.join(FORMS_DIR, PAYOUTS_CONFIG_FILE), 'utf8')) as Record<
  string,
  unknown
>

function problemsOf(load: () => unknown): string[] {
  try {
    load()
  } catch (error) {
    return (error as FormConfigError).problems
  }
  throw new Error('the config loaded')
}

describe('loadPayoutsConfigs', () => {
  it("reads the project's settings: the $2,000.00 threshold, 90 days, three years", () => {
    expect(loadPayoutsConfigs(FORMS_DIR, ['earnin'])('earnin')).toEqual({
      form1099ThresholdCents: 200_000,
      uncashedCheckDays: 90,
      dormancyYears: 3,
    })
  })

  it('names a threshold written in dollars with decimals, in the base file', () => {
    const dir = formsWith({ ...BASE, form1099ThresholdCents: 2000.5 })
    expect(problemsOf(() => loadPayoutsConfigs(dir, []))).toEqual([
      `${path.basename(dir)}/base/payouts.json: /form1099ThresholdCents must be integer`,
    ])
  })

  it("names each bad setting in an app's override", () => {
    const dir = formsWith(BASE, {
      earnin: { payouts: { dormancyYears: 0, uncashedCheckDays: '90' } },
    })
    expect(problemsOf(() => loadPayoutsConfigs(dir, ['earnin']))).toEqual([
      `${path.basename(dir)}/earnin.json: /payouts/uncashedCheckDays must be integer`,
      `${path.basename(dir)}/earnin.json: /payouts/dormancyYears must be >= 1`,
    ])
  })

  it("refuses a 1099 threshold in an app's override: it counts a payee's payments from every app", () => {
    const dir = formsWith(BASE, { earnin: { payouts: { form1099ThresholdCents: 60_000 } } })
    expect(problemsOf(() => loadPayoutsConfigs(dir, ['earnin']))).toEqual([
      `${path.basename(dir)}/earnin.json: /payouts/form1099ThresholdCents is the firm's, not an app's: a payee's payments from every app count together, so set it in ${path.basename(dir)}/base/payouts.json`,
    ])
    expect(loadPayoutsConfigs(formsWith(BASE), []).firm.form1099ThresholdCents).toBe(200_000)
  })

  it("lays an app's override over the base, key by key", () => {
    const dir = formsWith(BASE, { chime: { payouts: { dormancyYears: 5 } } })
    const payouts = loadPayoutsConfigs(dir, ['chime', 'earnin'])
    expect(payouts('chime')).toMatchObject({ dormancyYears: 5, form1099ThresholdCents: 200_000 })
    expect(payouts('earnin').dormancyYears).toBe(3)
  })

  it('names a key it does not know', () => {
    const dir = formsWith({ ...BASE, threshold: 600 })
    expect(problemsOf(() => loadPayoutsConfigs(dir, []))).toEqual([
      `${path.basename(dir)}/base/payouts.json: / must NOT have additional properties ("threshold")`,
    ])
  })
})
