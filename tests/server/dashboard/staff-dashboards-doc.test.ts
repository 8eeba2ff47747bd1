import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { STEP2_STATE_LABELS } from '../../../client/staff/step2-state-labels.ts'

const DOC = fs.readFileSync(new URL('../../../docs/staff-dashboards.md', import.meta.url), 'utf8')

describe('docs/staff-dashboards.md', () => {
  it("quotes an intake's Step 2 states in the words its details page shows, and no others", () => {
    const sentence = /its Step 2 state: ([^]*?)\.\s/.exec(DOC)?.[1]
    expect(sentence, 'the sentence on the Step 2 state').toBeDefined()
    const quoted = [...sentence!.matchAll(/"([^"]+)"/g)].map((match) => match[1])
    expect(quoted.sort()).toEqual(Object.values(STEP2_STATE_LABELS).sort())
  })
})
