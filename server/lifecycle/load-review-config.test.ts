import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { allowedMoves } from '../../src/review-config.ts'
import { loadReviewConfig, loadReviews } from './load-review-config.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')

/** A forms folder whose base/review.json is the project's, changed by `change`. */
function formsWith(change: (config: Record<string, unknown>) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-config-'))
  fs.mkdirSync(path.join(dir, 'base'))
  const config = JSON.parse(fs.readFileSync(path.join(FORMS_DIR, 'base', 'review.json'), 'utf8'))
  change(config)
  fs.writeFileSync(path.join(dir, 'base', 'review.json'), JSON.stringify(config))
  return dir
}

describe('loadReviewConfig', () => {
  it("reads the project's statuses, with the moves a reviewer, a claimant and the server may make", () => {
    const review = loadReviewConfig(FORMS_DIR)
    expect(review.initial).toBe('received')
    expect(review.curePeriodDays).toBe(14)
    expect(allowedMoves(review, 'received')).toEqual(['in_review', 'approved'])
    expect(allowedMoves(review, 'in_review')).toEqual(['approved', 'deficient', 'rejected'])
    expect(allowedMoves(review, 'deficient')).toEqual([])
    expect(allowedMoves(review, 'deficient', 'claimant')).toEqual(['cured'])
    expect(allowedMoves(review, 'deficient', 'system')).toEqual(['not_cured'])
    expect(review.reasons.screenshot_unreadable?.text?.es).toMatch(/captura de pantalla/)
  })

  it('refuses a config whose moves name unknown statuses or whose reason has no text, listing every problem', () => {
    const dir = formsWith((config) => {
      ;(config.moves as unknown[]).push({ from: 'in_review', to: 'archived' })
      config.initial = 'new'
      ;(config.reasons as Record<string, unknown>).mystery = { label: 'Mystery' }
    })
    expect(() => loadReviewConfig(dir)).toThrow(
      [
        'invalid form config:',
        `  ${path.basename(dir)}/base/review.json: /initial: unknown status "new"`,
        `  ${path.basename(dir)}/base/review.json: /moves/14/to: unknown status "archived"`,
        `  ${path.basename(dir)}/base/review.json: /reasons/mystery: needs an English text for the claimant, or "freeText": true`,
      ].join('\n'),
    )
  })

  it('refuses a config without the statuses the filing batches and the funnel name', () => {
    const dir = formsWith((config) => {
      const statuses = config.statuses as Record<string, unknown>
      delete statuses.filed
      config.moves = (config.moves as { from: string; to: string }[]).filter(
        (move) => move.from !== 'filed' && move.to !== 'filed',
      )
    })
    expect(() => loadReviewConfig(dir)).toThrow(
      [
        'invalid form config:',
        `  ${path.basename(dir)}/base/review.json: /roles/filed: unknown status "filed"`,
      ].join('\n'),
    )
  })

  it('refuses a config without a role, or with one status in two roles', () => {
    const missing = formsWith((config) => {
      delete (config.roles as Record<string, unknown>).cure
    })
    expect(() => loadReviewConfig(missing)).toThrow(
      `${path.basename(missing)}/base/review.json: /roles must have required property 'cure'`,
    )
    const twice = formsWith((config) => {
      ;(config.roles as Record<string, unknown>).filed = 'approved'
    })
    expect(() => loadReviewConfig(twice)).toThrow(
      `${path.basename(twice)}/base/review.json: /roles/filed: "approved" is the readyToFile role already`,
    )
  })

  it('refuses a move into a final status marked "decide": false, naming each such move', () => {
    const dir = formsWith((config) => {
      const moves = config.moves as { from: string; to: string; decide?: boolean }[]
      moves.find((move) => move.from === 'approved' && move.to === 'withdrawn')!.decide = false
      moves.find((move) => move.from === 'filed' && move.to === 'withdrawn')!.decide = false
    })
    expect(() => loadReviewConfig(dir)).toThrow(
      [
        'invalid form config:',
        `  ${path.basename(dir)}/base/review.json: /moves/8: approved → withdrawn ends the claim, so it needs the decide right: drop "decide": false`,
        `  ${path.basename(dir)}/base/review.json: /moves/11: filed → withdrawn ends the claim, so it needs the decide right: drop "decide": false`,
      ].join('\n'),
    )
  })

  it('refuses a config of the wrong shape, naming where', () => {
    const dir = formsWith((config) => {
      config.curePeriodDays = 0
    })
    expect(() => loadReviewConfig(dir)).toThrow(/review\.json: \/curePeriodDays must be >= 1/)
  })

  it('refuses a duplicate decision naming a status or reason the config does not have', () => {
    const dir = formsWith((config) => {
      config.duplicate = { status: 'binned', reason: 'copy' }
    })
    expect(() => loadReviewConfig(dir)).toThrow(
      [
        'invalid form config:',
        `  ${path.basename(dir)}/base/review.json: /duplicate/status: unknown status "binned"`,
        `  ${path.basename(dir)}/base/review.json: /duplicate/reason: unknown reason "copy"`,
      ].join('\n'),
    )
  })

  it("lays an app's review over the base, and refuses one that breaks it, naming the app's file", () => {
    const dir = formsWith(() => {})
    fs.writeFileSync(path.join(dir, 'acme.json'), JSON.stringify({ review: { curePeriodDays: 5 } }))
    const reviews = loadReviews(dir, ['acme', 'other'])
    expect(reviews('acme').curePeriodDays).toBe(5)
    expect(reviews('acme').reasons.other?.freeText).toBe(true)
    expect(reviews('other').curePeriodDays).toBe(14)

    fs.writeFileSync(
      path.join(dir, 'acme.json'),
      JSON.stringify({ review: { initial: 'in_review', moves: [{ from: 'received', to: 'archived' }] } }),
    )
    expect(() => loadReviews(dir, ['acme'])).toThrow(
      [
        'invalid form config:',
        `  ${path.basename(dir)}/acme.json: /review/moves/0/to: unknown status "archived"`,
      ].join('\n'),
    )
    fs.writeFileSync(path.join(dir, 'acme.json'), JSON.stringify({ review: { initial: 'in_review' } }))
    expect(() => loadReviews(dir, ['acme'])).toThrow(
      `${path.basename(dir)}/acme.json: /review/initial: every app's claims start "received", as review.json says`,
    )
  })
})
