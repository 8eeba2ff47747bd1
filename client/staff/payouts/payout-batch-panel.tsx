import { useEffect, useRef, useState } from 'react'
import type { PayoutBatchView } from '../../../src/api/payouts.ts'
import { Loading } from '../../ui/loading.tsx'
import { RefusalAlert, refusalOf, type Refusal } from '../filing/batch-refusal.tsx'
import { isUnauthorized } from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { approvePayoutBatch, fetchBatchReconciliation, PAYOUT_FILES, payoutFileHref } from './payout-api.ts'
import { PayoutItemsSection } from './payout-items-section.tsx'
import { payoutBatchName, totalsText } from './payout-words.ts'
import { ReconciliationTable } from './reconciliation-table.tsx'

export const MAKER_NOTE = 'You built this batch: another person with the payments right approves it.'

/**
 * One payout batch opened below the table: "Approve and send" (the checker's step, for an account with
 * the payments right other than the maker's), the files for the bank once it is sent, its items a page
 * at a time with numbers masked, and its reconciliation. Opening it, and each answer, moves the focus to what changed.
 */
export function PayoutBatchPanel({
  slug,
  batch,
  account,
  canPay,
  focusOnOpen,
  onApproved,
  onClose,
  onUnauthorized,
}: {
  slug: string
  batch: PayoutBatchView
  account: { email: string }
  canPay: boolean
  /** Opened by its button: the focus goes to the panel (a batch just built leaves it on the build's answer). */
  focusOnOpen: boolean
  onApproved: () => void
  onClose: () => void
  onUnauthorized: () => void
}) {
  const name = payoutBatchName(batch)
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    // when a batch is opened, not each time the list is read again
    if (focusOnOpen) headingRef.current?.focus()
  }, [batch.id, focusOnOpen])
  // approved here: the button goes with the batch's new state, so the focus goes to the line saying so
  const [approvedId, setApprovedId] = useState<number>()
  const newsRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (approvedId !== undefined) newsRef.current?.focus()
  }, [approvedId])
  const news =
    approvedId !== batch.id
      ? ''
      : batch.status === 'approved'
        ? `${name} approved: sending…`
        : batch.status === 'built'
          ? `${name} approved.`
          : `${name} approved and sent.`
  // the items and the figures move as the send job and the provider's answers move the items
  const key = `${batch.id}:${batch.status}:${JSON.stringify(batch.itemStatuses)}`
  const reconciliation = useStaffResource({
    key,
    load: (signal) => fetchBatchReconciliation({ batchId: batch.id, signal }),
    onUnauthorized,
  })

  return (
    <section id="payout-batch-panel" className="payout-batch-panel" aria-labelledby="payout-batch-heading">
      <h3 id="payout-batch-heading" ref={headingRef} tabIndex={-1}>
        {name}
      </h3>
      <p>
        {batch.totals.count.toLocaleString('en-US')} claim{batch.totals.count === 1 ? '' : 's'}:{' '}
        {totalsText(batch.totals)}.
      </p>
      {batch.status === 'built' ? (
        <ApproveStep
          batch={batch}
          isMaker={batch.builtBy === account.email}
          canPay={canPay}
          onApproved={() => {
            setApprovedId(batch.id)
            onApproved()
          }}
          onUnauthorized={onUnauthorized}
        />
      ) : null}
      <p ref={newsRef} tabIndex={-1} className="move-outcome" role="status">
        {news}
      </p>
      {canPay && batch.status !== 'built' ? <BankFiles batch={batch} /> : null}
      <h4>Items</h4>
      <PayoutItemsSection
        // another batch opens on its first page
        key={batch.id}
        slug={slug}
        batchId={batch.id}
        name={name.toLowerCase()}
        reloadKey={key}
        onUnauthorized={onUnauthorized}
      />
      <h4>Reconciliation</h4>
      {reconciliation.status === 'failed' ? (
        <p className="alert" role="alert">
          The reconciliation could not be loaded: {reconciliation.message}. Reload the page to try again.
        </p>
      ) : !reconciliation.data ? (
        <Loading label="Reconciling..." />
      ) : (
        <ReconciliationTable label={`Reconciliation of ${name.toLowerCase()}`} data={reconciliation.data} />
      )}
      <button type="button" className="secondary" onClick={onClose}>
        Close {name.toLowerCase()}
      </button>
    </section>
  )
}

/**
 * "Approve and send": the checker's step. The maker sees the button disabled and why; the server
 * refuses the maker anyway (403), and any refusal is shown as it was worded.
 */
function ApproveStep({
  batch,
  isMaker,
  canPay,
  onApproved,
  onUnauthorized,
}: {
  batch: PayoutBatchView
  isMaker: boolean
  canPay: boolean
  onApproved: () => void
  onUnauthorized: () => void
}) {
  const [isSending, setIsSending] = useState(false)
  const [refusal, setRefusal] = useState<Refusal>()
  const outcomeRef = useRef<HTMLDivElement>(null)
  const [answered, setAnswered] = useState(0)
  useEffect(() => {
    if (answered > 0) outcomeRef.current?.focus()
  }, [answered])
  const noteId = `payout-batch-${batch.id}-maker`

  async function approve() {
    setIsSending(true)
    setRefusal(undefined)
    try {
      await approvePayoutBatch(batch.id)
      onApproved()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf(`${payoutBatchName(batch)} was not approved`, error))
      setAnswered((n) => n + 1)
    } finally {
      setIsSending(false)
    }
  }

  if (!canPay) {
    return (
      <p className="batch-note">
        Approving a payout batch needs the app&apos;s payments right, which an admin grants.
      </p>
    )
  }
  return (
    <div className="action-row payout-approve">
      <button
        type="button"
        className="primary"
        disabled={isMaker || isSending}
        aria-describedby={isMaker ? noteId : undefined}
        onClick={() => void approve()}
      >
        {isSending ? 'Approving…' : 'Approve and send'}
      </button>
      {isMaker ? (
        <p id={noteId} className="batch-note">
          {MAKER_NOTE}
        </p>
      ) : null}
      <div ref={outcomeRef} tabIndex={-1}>
        {refusal ? <RefusalAlert refusal={refusal} /> : null}
      </div>
    </div>
  )
}

/** The files for the bank, each a download: the ACH credits, and the checks' register and positive pay. */
function BankFiles({ batch }: { batch: PayoutBatchView }) {
  const files = [
    ...(batch.methods.includes('ach') ? (['ach'] as const) : []),
    ...(batch.methods.includes('check') ? (['checks', 'positivePay'] as const) : []),
  ]
  if (files.length === 0) return null
  const name = payoutBatchName(batch).toLowerCase()
  return (
    <>
      <h4>Files for the bank</h4>
      <p className="batch-links">
        {files.map((file) => (
          <a key={file} className="button-link" href={payoutFileHref(batch.id, file)} download>
            {PAYOUT_FILES[file].label}
            <span className="visually-hidden"> of {name}</span>
          </a>
        ))}
      </p>
    </>
  )
}
