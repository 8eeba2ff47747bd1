import type { Batch } from '../../../src/api/filing-batches.ts'
import { formatLongDay } from '../shared/format.ts'
import { BatchStep, type StepStateName } from './batch-step.tsx'
import { batchName } from './batches-table.tsx'
import { CaseNumbersForm } from './case-numbers-form.tsx'
import { MarkSentForm } from './mark-sent-form.tsx'
import { TrackingNumbersForm } from './tracking-numbers-form.tsx'

interface StepProps {
  slug: string
  number: number
  /** Newest first, as the list answers; undefined while it loads. */
  batches: Batch[] | undefined
  canDecide: boolean
  onChanged: () => void
  onUnauthorized: () => void
}

const names = (batches: Batch[]) => batches.map((batch) => batchName(batch).toLowerCase()).join(', ')

/** A notice batch sent by certified mail without one number for it all: each claimant's number is to import. */
const lacksTrackingNumbers = (batch: Batch) =>
  batch.sent?.method === 'certified_mail' && !batch.sent.tracking && batch.trackingNumbers < batch.claimCount

function sentState(batches: Batch[]): { state: StepStateName; text: string } {
  const notices = batches.filter((batch) => batch.kind === 'notice')
  const toSend = notices.filter((batch) => batch.status === 'ready' && !batch.sent)
  const building = notices.filter((batch) => batch.status === 'building')
  const lastSent = notices.find((batch) => batch.sent)
  const toNumber = notices.filter(lacksTrackingNumbers)
  if (toSend.length > 0) {
    return { state: 'todo', text: `Mail or e-mail ${names(toSend)}, then mark it sent here.` }
  }
  if (toNumber.length > 0) {
    return {
      state: 'todo',
      text: toNumber
        .map(
          (batch) =>
            `${batchName(batch)} has ${batch.trackingNumbers.toLocaleString('en-US')} of ${batch.claimCount.toLocaleString('en-US')} certified mail numbers: import them below.`,
        )
        .join(' '),
    }
  }
  if (building.length > 0) return { state: 'waiting', text: `${names(building)} is being built.` }
  if (lastSent?.sent) {
    return {
      state: 'done',
      text: `${batchName(lastSent)} was sent on ${formatLongDay(lastSent.sent.on)}; its claims may be filed from ${formatLongDay(lastSent.sent.mayFileFrom)}.`,
    }
  }
  return { state: 'waiting', text: 'No notice batch has been built yet (step 1).' }
}

/**
 * "2. Mark it sent": each ready notice batch not marked sent yet, with its form, and each sent notice
 * batch's certified mail numbers, a claimant's own (the newest five batches); the step says which batch
 * waits to go out or to be numbered, or when the last one went.
 */
export function MarkSentStep({ slug, number, batches, canDecide, onChanged, onUnauthorized }: StepProps) {
  const toSend = (batches ?? []).filter(
    (batch) => batch.kind === 'notice' && batch.status === 'ready' && !batch.sent,
  )
  const sent = (batches ?? [])
    .filter((batch) => batch.kind === 'notice' && batch.sent && batch.sent.method !== 'email')
    .slice(0, 5)
  return (
    <BatchStep number={number} title="Mark it sent" state={batches ? sentState(batches) : undefined}>
      {toSend.length > 0 && !canDecide ? (
        <p className="batch-note">Marking a batch sent needs the app&apos;s decide right.</p>
      ) : null}
      {canDecide
        ? toSend.map((batch) => (
            <MarkSentForm
              key={batch.id}
              slug={slug}
              batch={batch}
              onSent={onChanged}
              onUnauthorized={onUnauthorized}
            />
          ))
        : null}
      {canDecide
        ? sent.map((batch) => (
            <TrackingNumbersForm
              key={batch.id}
              slug={slug}
              batch={batch}
              onImported={onChanged}
              onUnauthorized={onUnauthorized}
            />
          ))
        : null}
    </BatchStep>
  )
}

function caseNumbersState(batches: Batch[]): { state: StepStateName; text: string } {
  const filings = batches.filter((batch) => batch.kind === 'filing')
  const open = filings.filter((batch) => batch.status === 'ready' && batch.caseNumbers < batch.claimCount)
  const building = filings.filter((batch) => batch.status === 'building')
  if (open.length > 0) {
    return {
      state: 'todo',
      text: open
        .map(
          (batch) =>
            `${batchName(batch)} has ${batch.caseNumbers.toLocaleString('en-US')} of ${batch.claimCount.toLocaleString('en-US')} case numbers.`,
        )
        .join(' '),
    }
  }
  if (building.length > 0) return { state: 'waiting', text: `${names(building)} is being built.` }
  if (filings.some((batch) => batch.status === 'ready')) {
    return { state: 'done', text: 'Every filing batch has its case numbers.' }
  }
  return { state: 'waiting', text: 'No filing batch has been built yet (step 3).' }
}

/**
 * "4. Import case numbers": each ready filing batch still short of case numbers, with the provider's CSV
 * import; the step says how many each has.
 */
export function CaseNumbersStep({ slug, number, batches, canDecide, onChanged, onUnauthorized }: StepProps) {
  const open = (batches ?? []).filter(
    (batch) => batch.kind === 'filing' && batch.status === 'ready' && batch.caseNumbers < batch.claimCount,
  )
  return (
    <BatchStep
      number={number}
      title="Import case numbers"
      state={batches ? caseNumbersState(batches) : undefined}
    >
      {open.length > 0 && !canDecide ? (
        <p className="batch-note">Importing case numbers needs the app&apos;s decide right.</p>
      ) : null}
      {canDecide
        ? open.map((batch) => (
            <CaseNumbersForm
              key={batch.id}
              slug={slug}
              batch={batch}
              onImported={onChanged}
              onUnauthorized={onUnauthorized}
            />
          ))
        : null}
    </BatchStep>
  )
}
