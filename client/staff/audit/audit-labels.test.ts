import { describe, expect, it } from 'vitest'
import { actionLabel } from './audit-labels.ts'

describe('actionLabel', () => {
  it('labels a disowned claim in sentence case like every other action', () => {
    expect(actionLabel('claim_disowned')).toBe('Claim disowned by the owner of its e-mail')
    expect(actionLabel('login_success')).toBe('Signed in')
  })

  it('writes an action it does not know in sentence case', () => {
    expect(actionLabel('claim_split_in_two')).toBe('Claim split in two')
  })
})
