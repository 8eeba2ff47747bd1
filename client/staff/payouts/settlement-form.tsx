import { useId, useState, type FormEvent } from 'react'
import type { SettlementRule } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { RefusalAlert, useRefusableSend } from '../filing/batch-refusal.tsx'
import { createSettlement } from './payout-api.ts'

const RULES: { rule: SettlementRule; label: string }[] = [
  { rule: 'equal', label: 'Equal shares' },
  { rule: 'cashAdvanceCount', label: 'By cash advances' },
]

/**
 * A settlement shared among every filed claim of the app that has no award yet: its name, its total
 * as typed ("250,000.00") and how it is shared. The server checks the amount and answers each claim's
 * share; the line that says so, or the refusal, takes the focus.
 */
export function SettlementForm({
  slug,
  displayName,
  onCreated,
  onUnauthorized,
}: {
  slug: string
  displayName: string
  onCreated: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [name, setName] = useState('')
  const [total, setTotal] = useState('')
  const [rule, setRule] = useState<SettlementRule>('equal')
  const [done, setDone] = useState('')
  const { isSending, refusal, outcomeRef, send } = useRefusableSend({ onUnauthorized })

  async function submit(event: FormEvent) {
    event.preventDefault()
    setDone('')
    await send('The settlement was not shared', async () => {
      const created = await createSettlement({ slug, settlement: { name, total, rule } })
      const count = created.shares.length
      setDone(
        `Settlement “${created.name}”: ${formatCents(created.totalCents)} shared among ${count.toLocaleString('en-US')} claim${count === 1 ? '' : 's'}.`,
      )
      setName('')
      setTotal('')
      onCreated()
    })
  }

  return (
    <form
      className="move-form batch-form"
      aria-label="Share a settlement"
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${id}-name`}>Settlement name</label>
      <input
        id={`${id}-name`}
        className="form-control"
        type="text"
        required
        maxLength={200}
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <label htmlFor={`${id}-total`}>Total</label>
      <input
        id={`${id}-total`}
        className="form-control"
        type="text"
        inputMode="decimal"
        required
        autoComplete="off"
        placeholder="250,000.00"
        aria-describedby={`${id}-hint`}
        value={total}
        onChange={(event) => setTotal(event.target.value)}
      />
      <fieldset>
        <legend>Shared</legend>
        {RULES.map((each) => (
          <label key={each.rule} className="move-choice">
            <input
              type="radio"
              name={`${id}-rule`}
              value={each.rule}
              checked={rule === each.rule}
              onChange={() => setRule(each.rule)}
            />
            {each.label}
          </label>
        ))}
      </fieldset>
      <p id={`${id}-hint`} className="hint">
        In dollars and cents. It is shared among every filed {displayName} claim without an award, to the
        cent.
      </p>
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Sharing…' : 'Share the settlement'}
      </button>
      <div ref={outcomeRef} tabIndex={-1}>
        <p className="move-outcome" role="status">
          {done}
        </p>
        {refusal ? <RefusalAlert refusal={refusal} /> : null}
      </div>
    </form>
  )
}
