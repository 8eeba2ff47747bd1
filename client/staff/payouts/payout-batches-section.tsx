import { useEffect, useId, useState, type FormEvent, type Ref } from 'react'
import type { PayoutBatchBuilt, PayoutCandidates } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { PAYOUT_METHODS } from '../../../src/payout-details.ts'
import { Loading } from '../../ui/loading.tsx'
import { RefusalAlert, useRefusableSend } from '../filing/batch-refusal.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { buildPayoutBatch, fetchPayouts } from './payout-api.ts'
import { PayoutBatchPanel } from './payout-batch-panel.tsx'
import { openButtonId, PayoutBatchesTable } from './payout-batches-table.tsx'
import { METHOD_LABELS, payoutBatchName, plural, totalsText } from './payout-words.ts'

/** How often the list is read again while an approved batch is being sent. */
const POLL_MS = 2_000

/**
 * The payout batches: what a batch built now would take, "Build a payout batch" with its optional
 * costs (the maker's step, with the payments right), the batches, and the one opened below them.
 */
export function PayoutBatchesSection({
  id,
  headingRef,
  slug,
  account,
  canPay,
  loadKey,
  onUnauthorized,
}: {
  id: string
  headingRef: Ref<HTMLHeadingElement>
  slug: string
  account: { email: string }
  canPay: boolean
  /** Changes when an award is set: what a batch could take is read again. */
  loadKey: string
  onUnauthorized: () => void
}) {
  const [changes, setChanges] = useState(0)
  const [polls, setPolls] = useState(0)
  const [openId, setOpenId] = useState<number>()
  const [isOpenedByButton, setIsOpenedByButton] = useState(false)
  const page = useStaffResource({
    key: `${slug}:${loadKey}:${changes}:${polls}`,
    load: (signal) => fetchPayouts({ slug, signal }),
    onUnauthorized,
  })
  const batches = page.data?.batches
  const isSending = (batches ?? []).some((batch) => batch.status === 'approved')
  useEffect(() => {
    if (!isSending || page.status !== 'ready') return
    const timer = setTimeout(() => setPolls((n) => n + 1), POLL_MS)
    return () => clearTimeout(timer)
  }, [isSending, page.status, page.data])
  const opened = batches?.find((batch) => batch.id === openId)
  const close = () => {
    const closedId = openId
    setOpenId(undefined)
    // back to the row the panel was opened from
    if (closedId !== undefined)
      requestAnimationFrame(() => document.getElementById(openButtonId(closedId))?.focus())
  }

  return (
    <section id={id} className="payouts-part" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        Payout batches
      </h2>
      {page.data && !page.data.isPayPalSetUp ? (
        <p className="batch-note">
          PayPal is not set up (PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET): PayPal and Venmo payments wait in
          their batch until it is.
        </p>
      ) : null}
      <h3>What could go in now</h3>
      {page.status === 'failed' ? (
        <p className="alert" role="alert">
          The payouts could not be loaded: {page.message}. Reload the page to try again.
        </p>
      ) : !page.data ? (
        <Loading label="Counting the claims ready to pay..." />
      ) : (
        <Candidates candidates={page.data.candidates} />
      )}
      {canPay ? (
        <BuildForm
          slug={slug}
          isEmpty={!page.data || page.data.candidates.count === 0}
          onBuilt={(built) => {
            setOpenId(built.batchId)
            setIsOpenedByButton(false)
            setChanges((n) => n + 1)
          }}
          onUnauthorized={onUnauthorized}
        />
      ) : (
        <p className="batch-note">
          Building and approving payout batches needs the app&apos;s payments right, which an admin grants.
        </p>
      )}
      <h3>Batches</h3>
      {batches ? (
        <PayoutBatchesTable
          batches={batches}
          openId={openId}
          onOpen={(batchId) => {
            setOpenId(batchId)
            setIsOpenedByButton(true)
          }}
        />
      ) : null}
      {opened ? (
        <PayoutBatchPanel
          slug={slug}
          batch={opened}
          account={account}
          canPay={canPay}
          focusOnOpen={isOpenedByButton}
          onApproved={() => setChanges((n) => n + 1)}
          onClose={close}
          onUnauthorized={onUnauthorized}
        />
      ) : null}
    </section>
  )
}

/** The claims a batch built now would take: how many, their awards, how they are paid. */
function Candidates({ candidates }: { candidates: PayoutCandidates }) {
  if (candidates.count === 0) {
    return (
      <p>
        No claim is ready to pay now: a claim needs an award, the claimant&apos;s payment choice, their
        consent to a settlement&apos;s allocation, and no payment under way.
      </p>
    )
  }
  const methods = PAYOUT_METHODS.flatMap((method) => {
    const entry = candidates.byMethod[method]
    return entry ? [{ method, ...entry }] : []
  })
  return (
    <>
      <p className="payouts-totals">
        {plural(candidates.count, 'claim is', 'claims are')} ready to pay:{' '}
        {formatCents(candidates.grossCents)} gross.
      </p>
      <ul className="payout-methods">
        {methods.map(({ method, count, grossCents }) => (
          <li key={method}>
            {METHOD_LABELS[method]}: {plural(count, 'claim', 'claims')}, {formatCents(grossCents)}
          </li>
        ))}
      </ul>
      {candidates.withoutTaxForm > 0 ? (
        <p>
          {plural(candidates.withoutTaxForm, 'claimant has', 'claimants have')} no W-9 on file: 24% backup
          withholding is taken from {candidates.withoutTaxForm === 1 ? 'that payment' : 'those payments'}.
        </p>
      ) : null}
      <p className="batch-note">
        Each claim&apos;s fee comes from its signed agreement when the batch is built; the batch then shows
        the fee, costs, withholding and net.
      </p>
    </>
  )
}

/** "Build a payout batch", with the costs spread over its claims; the answer takes the focus. */
function BuildForm({
  slug,
  isEmpty,
  onBuilt,
  onUnauthorized,
}: {
  slug: string
  isEmpty: boolean
  onBuilt: (built: PayoutBatchBuilt) => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [costs, setCosts] = useState('')
  const [built, setBuilt] = useState<PayoutBatchBuilt>()
  const { isSending: isBuilding, refusal, outcomeRef, send } = useRefusableSend({ onUnauthorized })

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBuilt(undefined)
    await send('The payout batch was not built', async () => {
      const answer = await buildPayoutBatch({ slug, costs: costs.trim() || '0' })
      setBuilt(answer)
      setCosts('')
      onBuilt(answer)
    })
  }

  return (
    <form
      className="move-form batch-form"
      aria-label="Build a payout batch"
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${id}-costs`}>Batch costs (optional)</label>
      <input
        id={`${id}-costs`}
        className="form-control"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        aria-describedby={`${id}-costs-hint`}
        value={costs}
        onChange={(event) => setCosts(event.target.value)}
      />
      <p id={`${id}-costs-hint`} className="hint">
        Case costs to repay from this batch, in dollars and cents, spread equally over its claims.
      </p>
      <button type="submit" className="primary" disabled={isBuilding || isEmpty}>
        {isBuilding ? 'Building…' : 'Build a payout batch'}
      </button>
      <div ref={outcomeRef} tabIndex={-1}>
        <div className="move-outcome" role="status">
          {built ? (
            <p>
              {payoutBatchName({ id: built.batchId })} built: {plural(built.totals.count, 'claim', 'claims')},{' '}
              {totalsText(built.totals)}. Another person with the payments right approves it below.
            </p>
          ) : null}
          {built && built.leftOut.length > 0 ? (
            <>
              <p>Left out of the batch:</p>
              <ul>
                {built.leftOut.map((claim) => (
                  <li key={claim.claimId}>
                    claim {claim.claimId}: {claim.reason.replace(`claim ${claim.claimId}: `, '')}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
        {refusal ? <RefusalAlert refusal={refusal} /> : null}
      </div>
    </form>
  )
}
