import { useState } from 'react'
import type { BatchCandidates, BatchKind } from '../../../src/api/filing-batches.ts'
import { Link } from '../../routing/router.tsx'
import { formatLongDay } from '../shared/format.ts'
import { isUnauthorized } from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { fetchBatchCandidates, startBatch } from './batch-api.ts'
import { CureRequestButton, RefusalAlert, refusalOf, type Outcome } from './batch-refusal.tsx'
import { BatchStep, type StepStateName } from './batch-step.tsx'

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** Each kind's words: a notice of dispute goes to the respondent first, the filing to the provider after. */
const WORDS: Record<
  BatchKind,
  { ready: (n: number) => string; lacking: (n: number) => string; build: string }
> = {
  notice: {
    ready: (n) => `${plural(n, 'approved claim', 'approved claims')} can get a notice`,
    lacking: (n) => `${n.toLocaleString('en-US')} lack${n === 1 ? 's' : ''} what a notice needs`,
    build: 'Build a notice batch',
  },
  filing: {
    ready: (n) => `${plural(n, 'approved claim', 'approved claims')} can be filed`,
    lacking: (n) => `${n.toLocaleString('en-US')} lack${n === 1 ? 's' : ''} what the provider needs`,
    build: 'Build a filing batch',
  },
}

/** Why no claim can go into a batch of `kind` now, and when one can. */
export function whyNone(kind: BatchKind, data: BatchCandidates): string {
  if (data.approved === 0) return 'No claim is approved yet: approve claims on the dashboard first.'
  const reasons: string[] = []
  if (kind === 'filing' && data.waiting > 0 && data.nextMayFileFrom) {
    reasons.push(
      `${plural(data.waiting, 'claim is', 'claims are')} in the waiting period after its notice; the first may be filed on ${formatLongDay(data.nextMayFileFrom)}`,
    )
  }
  if (kind === 'filing' && data.noNotice > 0) {
    reasons.push(
      `${plural(data.noNotice, 'approved claim has', 'approved claims have')} no notice of dispute sent yet (steps 1 and 2)`,
    )
  }
  if (data.lacking > 0) reasons.push(`${WORDS[kind].lacking(data.lacking)} (listed below)`)
  if (data.held + data.unscored > 0) {
    const kept = data.held + data.unscored
    reasons.push(
      `${plural(kept, 'approved claim is', 'approved claims are')} kept out by the fraud hold (below)`,
    )
  }
  if (reasons.length === 0) {
    return `Every approved claim is in a ${kind} batch already.`
  }
  return `${reasons.join('. ')}.`
}

/** The step's state: claims to batch now, or why none can go in and when. */
function stepState(kind: BatchKind, data: BatchCandidates): { state: StepStateName; text: string } {
  if (data.ready > 0) return { state: 'todo', text: `${WORDS[kind].ready(data.ready)}.` }
  const isWaiting =
    data.approved === 0 ||
    data.lacking > 0 ||
    data.held + data.unscored > 0 ||
    (kind === 'filing' && data.waiting + data.noNotice > 0)
  return {
    state: isWaiting ? 'waiting' : 'done',
    text: `${WORDS[kind].ready(0)} now. ${whyNone(kind, data)}`,
  }
}

/**
 * One kind's "Build a … batch" step: how many approved claims can go in, which cannot and why (a line a
 * claim, linked to its review, with a cure request to their claimants), the button that builds a batch
 * of every claim that can go in now, and one line for each batch this page started or saw building, as
 * it stands now.
 */
export function BatchCandidatesSection({
  slug,
  kind,
  number,
  loadKey,
  news,
  canDecide,
  onStarted,
  onChanged,
  onUnauthorized,
}: {
  slug: string
  kind: BatchKind
  number: number
  /** Changes when a batch is built, finished, sent or filed: the counts are loaded again. */
  loadKey: string
  /** "Notice batch 3 is ready.": one line a batch of this kind, its state now. */
  news: string[]
  canDecide: boolean
  onStarted: (batch: { id: number; claimCount: number }) => void
  onChanged: () => void
  onUnauthorized: () => void
}) {
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
      onStarted(await startBatch({ slug, kind }))
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      onOutcome({ isDone: false, refusal: refusalOf(`The ${kind} batch was not built`, error) })
    } finally {
      setIsBuilding(false)
    }
  }

  const data = candidates.data
  return (
    <BatchStep number={number} title={words.build} state={data ? stepState(kind, data) : undefined}>
      {candidates.status === 'failed' ? (
        <p className="alert" role="alert">
          The claims that could go into a {kind} batch could not be loaded: {candidates.message}. Reload the
          page to try again.
        </p>
      ) : !data ? (
        <p>Counting the approved claims…</p>
      ) : null}
      {data && data.held + data.unscored > 0 ? <Held slug={slug} data={data} /> : null}
      {data && data.lacking > 0 ? (
        <Lacking
          slug={slug}
          data={data}
          lead={words.lacking(data.lacking)}
          canDecide={canDecide}
          onOutcome={onOutcome}
          onUnauthorized={onUnauthorized}
        />
      ) : null}
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
      <div className="move-outcome" role="status">
        {[...news, ...(outcome?.isDone ? [outcome.message] : [])].map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
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
    </BatchStep>
  )
}

/**
 * The approved claims the fraud hold keeps out of the batch: held (at or below the app's hold threshold,
 * not cleared by a reviewer) and not scored yet, with the dashboard's list of them.
 */
function Held({ slug, data }: { slug: string; data: BatchCandidates }) {
  const parts = [
    ...(data.held > 0
      ? [
          `${plural(data.held, 'approved claim is', 'approved claims are')} held for fraud review, not cleared by a reviewer`,
        ]
      : []),
    ...(data.unscored > 0
      ? [`${plural(data.unscored, 'approved claim is', 'approved claims are')} not scored for fraud yet`]
      : []),
  ]
  return (
    <p className="batch-held">
      {parts.join('; ')}: the batch leaves {data.held + data.unscored === 1 ? 'it' : 'them'} out.{' '}
      <Link to={`/${slug}-admin?fraud=hold`}>Review the held claims on the dashboard</Link>
    </p>
  )
}

/** "claim 12: no street address" → "no street address": the claim is named once, at the line's start. */
function withoutClaim(problem: string, claimId: number): string {
  const prefix = `claim ${claimId}: `
  return problem.startsWith(prefix) ? problem.slice(prefix.length) : problem
}

/**
 * The approved claims that cannot go in, a line a claim naming all it lacks and linking to its review;
 * their claimants can be asked for it.
 */
function Lacking({
  slug,
  data,
  lead,
  canDecide,
  onOutcome,
  onUnauthorized,
}: {
  slug: string
  data: BatchCandidates
  lead: string
  canDecide: boolean
  onOutcome: (outcome: Outcome) => void
  onUnauthorized: () => void
}) {
  const lacking = data.claims.filter((claim) => claim.missing.length > 0)
  return (
    <>
      <p>
        {lead}
        {lacking.length < data.lacking ? ` (the first ${lacking.length} are listed)` : ''}:
      </p>
      <ul className="batch-lacking">
        {lacking.map((claim) => (
          <li key={claim.claimId}>
            <Link to={`/${slug}-admin/claims/${claim.claimId}`}>
              claim {claim.claimId}
              {claim.name ? ` (${claim.name})` : ''}
            </Link>
            : {claim.missing.map((problem) => withoutClaim(problem, claim.claimId)).join(', ')}
          </li>
        ))}
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
