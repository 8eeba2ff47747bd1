import { useId, useState } from 'react'
import type { BatchCandidates, BatchKind } from '../../../src/api/filing-batches.ts'
import { formatLongDay } from '../format.ts'
import { isUnauthorized } from '../staff-api.ts'
import { useStaffResource } from '../use-staff-resource.ts'
import { fetchBatchCandidates, startBatch } from './batch-api.ts'
import { CureRequestButton, RefusalAlert, refusalOf, type Outcome } from './batch-refusal.tsx'

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** Each kind's words: a notice of dispute goes to the respondent first, the filing to the provider after. */
const WORDS: Record<
  BatchKind,
  { heading: string; ready: (n: number) => string; lacking: (n: number) => string; build: string }
> = {
  notice: {
    heading: 'Notices of dispute',
    ready: (n) => `${plural(n, 'approved claim', 'approved claims')} can get a notice`,
    lacking: (n) => `${n.toLocaleString('en-US')} lack${n === 1 ? 's' : ''} what a notice needs`,
    build: 'Build a notice batch',
  },
  filing: {
    heading: 'Filing batches',
    ready: (n) => `${plural(n, 'approved claim', 'approved claims')} can be filed`,
    lacking: (n) => `${n.toLocaleString('en-US')} lack${n === 1 ? 's' : ''} what the provider needs`,
    build: 'Build a filing batch',
  },
}

/**
 * One kind's next batch: how many approved claims can go in, which cannot and why (with a cure request
 * to their claimants), and the button that builds it of every claim that can go in now.
 */
export function BatchCandidatesSection({
  slug,
  kind,
  loadKey,
  canDecide,
  onChanged,
  onUnauthorized,
}: {
  slug: string
  kind: BatchKind
  /** Changes when a batch is built, finished, sent or filed: the counts are loaded again. */
  loadKey: string
  canDecide: boolean
  onChanged: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const words = WORDS[kind]
  const candidates = useStaffResource({
    key: `${slug}:${kind}:${loadKey}`,
    load: (signal) => fetchBatchCandidates({ slug, kind, signal }),
    onUnauthorized,
  })
  const [outcome, setOutcome] = useState<Outcome>()
  const [isBuilding, setIsBuilding] = useState(false)
  const onOutcome = (next: Outcome) => {
    setOutcome(next)
    if (next.isDone) onChanged()
  }

  async function build() {
    setIsBuilding(true)
    setOutcome(undefined)
    try {
      const batch = await startBatch({ slug, kind })
      onOutcome({
        isDone: true,
        message: `${kind === 'notice' ? 'Notice' : 'Filing'} batch ${batch.id} is being built: ${plural(batch.claimCount, 'claim', 'claims')}.`,
      })
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      onOutcome({ isDone: false, refusal: refusalOf(`The ${kind} batch was not built`, error) })
    } finally {
      setIsBuilding(false)
    }
  }

  const data = candidates.data
  return (
    <section className="batch-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{words.heading}</h2>
      {candidates.status === 'failed' ? (
        <p className="alert" role="alert">
          The claims that could go into a {kind} batch could not be loaded: {candidates.message}. Reload the
          page to try again.
        </p>
      ) : !data ? (
        <p>Counting the approved claims…</p>
      ) : (
        <>
          <p>{words.ready(data.ready)}.</p>
          {kind === 'filing' && data.waiting > 0 && data.nextMayFileFrom ? (
            <p>
              {data.waiting === 1
                ? `1 is in its waiting period; it may be filed on ${formatLongDay(data.nextMayFileFrom)}.`
                : `${data.waiting.toLocaleString('en-US')} are in their waiting period; the first may be filed on ${formatLongDay(data.nextMayFileFrom)}.`}
            </p>
          ) : null}
          {data.lacking > 0 ? (
            <Lacking
              slug={slug}
              data={data}
              words={words}
              canDecide={canDecide}
              onOutcome={onOutcome}
              onUnauthorized={onUnauthorized}
            />
          ) : null}
        </>
      )}
      {canDecide ? (
        <div className="action-row">
          <button
            type="button"
            className="primary"
            disabled={isBuilding || !data || data.ready === 0}
            onClick={() => void build()}
          >
            {isBuilding ? 'Building…' : words.build}
          </button>
        </div>
      ) : (
        <p className="batch-note">
          Building a batch needs the app&apos;s decide right, which an admin grants.
        </p>
      )}
      <p className="move-outcome" role="status">
        {outcome?.isDone ? outcome.message : ''}
      </p>
      {outcome && !outcome.isDone ? (
        <RefusalAlert refusal={outcome.refusal}>
          {outcome.refusal.claimIds.length > 0 && canDecide ? (
            <CureRequestButton
              slug={slug}
              claimIds={outcome.refusal.claimIds}
              onOutcome={onOutcome}
              onUnauthorized={onUnauthorized}
            />
          ) : null}
        </RefusalAlert>
      ) : null}
    </section>
  )
}

/** The approved claims that cannot go in, each with what it lacks; their claimants can be asked for it. */
function Lacking({
  slug,
  data,
  words,
  canDecide,
  onOutcome,
  onUnauthorized,
}: {
  slug: string
  data: BatchCandidates
  words: (typeof WORDS)[BatchKind]
  canDecide: boolean
  onOutcome: (outcome: Outcome) => void
  onUnauthorized: () => void
}) {
  const lacking = data.claims.filter((claim) => claim.missing.length > 0)
  return (
    <>
      <p>
        {words.lacking(data.lacking)}
        {lacking.length < data.lacking ? ` (the first ${lacking.length} are listed)` : ''}:
      </p>
      <ul className="batch-lacking">
        {lacking.flatMap((claim) =>
          claim.missing.map((problem) => (
            <li key={`${claim.claimId}:${problem}`}>
              {problem} ({claim.name})
            </li>
          )),
        )}
      </ul>
      {canDecide && lacking.length > 0 ? (
        <CureRequestButton
          slug={slug}
          claimIds={lacking.map((claim) => claim.claimId)}
          onOutcome={onOutcome}
          onUnauthorized={onUnauthorized}
        />
      ) : null}
    </>
  )
}
