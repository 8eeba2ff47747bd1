import { useId, useState, type FormEvent } from 'react'
import type { AwardSet } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { RefusalAlert, useRefusableSend } from '../filing/batch-refusal.tsx'
import { setAward, setAwardCosts } from './payout-api.ts'

/**
 * One claim's award typed by its claim ID, with the case costs the firm advanced on the claim. With
 * the decide right it sets the award and the costs; with the payments right alone only the costs of an
 * award already set. The server checks the amounts (costs are at most the award) and answers what it
 * stored; the line that says so, or the refusal, takes the focus.
 */
export function AwardForm({
  canDecide,
  onSaved,
  onUnauthorized,
}: {
  canDecide: boolean
  onSaved: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [claimId, setClaimId] = useState('')
  const [amount, setAmount] = useState('')
  const [costs, setCosts] = useState('')
  const [done, setDone] = useState('')
  const { isSending, refusal, outcomeRef, send } = useRefusableSend({ onUnauthorized })
  const what = canDecide ? 'The award was not set' : 'The costs were not set'

  async function submit(event: FormEvent) {
    event.preventDefault()
    setDone('')
    await send(what, async () => {
      const claim = Number(claimId.trim())
      if (!Number.isSafeInteger(claim) || claim < 1) throw new Error(`"${claimId}" is not a claim ID`)
      const saved = canDecide
        ? await setAward({ claimId: claim, award: { amount, ...(costs.trim() === '' ? {} : { costs }) } })
        : await setAwardCosts({ claimId: claim, costs })
      setDone(doneText(saved))
      if (saved.changed) onSaved()
    })
  }

  return (
    <form
      className="move-form batch-form"
      aria-label={canDecide ? "Enter a claim's award" : 'Enter the costs advanced on a claim'}
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${id}-claim`}>Claim ID</label>
      <input
        id={`${id}-claim`}
        className="form-control"
        type="text"
        inputMode="numeric"
        required
        autoComplete="off"
        value={claimId}
        onChange={(event) => setClaimId(event.target.value)}
      />
      {canDecide ? (
        <>
          <label htmlFor={`${id}-amount`}>Award</label>
          <input
            id={`${id}-amount`}
            className="form-control"
            type="text"
            inputMode="decimal"
            required
            autoComplete="off"
            placeholder="1,234.56"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        </>
      ) : null}
      <label htmlFor={`${id}-costs`}>Costs advanced on this claim{canDecide ? ' (optional)' : ''}</label>
      <input
        id={`${id}-costs`}
        className="form-control"
        type="text"
        inputMode="decimal"
        required={!canDecide}
        autoComplete="off"
        placeholder="0.00"
        aria-describedby={`${id}-hint`}
        value={costs}
        onChange={(event) => setCosts(event.target.value)}
      />
      <p id={`${id}-hint`} className="hint">
        In dollars and cents. Costs the firm spent on this claim alone, repaid from its award after the fee
        and before the claimant&apos;s net; at most the award. Set only before a payout batch takes the claim.
      </p>
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Saving…' : canDecide ? 'Set the award' : 'Set the costs'}
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

function doneText(saved: AwardSet): string {
  const amounts = `award ${formatCents(saved.grossCents)}, costs advanced ${formatCents(saved.costsCents)}`
  return saved.changed
    ? `Claim ${saved.claimId}: ${amounts}.`
    : `Claim ${saved.claimId} already has these amounts (${amounts}); nothing changed.`
}
