import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import { BULK_ATTENTION, type BulkAttention, type BulkMoveFilter } from '../../../src/api/bulk-moves.ts'
import { MAX_REVIEW_NOTE_LENGTH } from '../../../src/review-config.ts'
import {
  fetchBulkMoveChoices,
  fetchBulkMoveJob,
  previewBulkMove,
  startBulkMove,
  type BulkMoveJob,
  type BulkMovePreview,
  type BulkMoveRequest,
} from './bulk-move-api.ts'
import { isUnauthorized } from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'

const POLL_MS = 500

/**
 * "Move these claims": the checked rows, or every claim the dashboard's filter shows, moved to one
 * status with one reason and note. Preview says how many would move; Move starts the server's job and
 * follows it to its end. Shown only to accounts with the app's decide right. Without a filter (a
 * cluster's page), the checked claims are the only choice.
 */
export function BulkMovePanel({
  slug,
  checkedIds,
  filter,
  filterCount,
  onMoved,
  onUnauthorized,
}: {
  slug: string
  checkedIds: number[]
  /** The dashboard's search and filters, as its list's query parameters; left out, only the checked claims move. */
  filter?: BulkMoveFilter | undefined
  /**
   * How many claims the filter shows, as the list prints it ("1,000+" when its count is capped: the
   * preview counts them all); undefined while the list loads.
   */
  filterCount: string | undefined
  /** A job ended: the list, its counts and the checked rows follow. */
  onMoved: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const choices = useStaffResource({
    key: slug,
    load: (signal) => fetchBulkMoveChoices({ slug, signal }),
    onUnauthorized,
  })
  const [chosenScope, setScope] = useState<'checked' | 'filter'>()
  const scope =
    filter === undefined ? 'checked' : (chosenScope ?? (checkedIds.length > 0 ? 'checked' : 'filter'))
  // nothing is chosen for the reviewer: a move of many claims is never one key press away
  const [to, setTo] = useState('')
  const [reason, setReason] = useState('')
  const [reasonText, setReasonText] = useState('')
  const [note, setNote] = useState('')
  const [preview, setPreview] = useState<{ key: string; data: BulkMovePreview }>()
  const [problem, setProblem] = useState<string>()
  const [isSending, setIsSending] = useState(false)
  const [job, setJob] = useState<BulkMoveJob>()

  const target = choices.data?.targets.find((each) => each.to === to)
  const freeText = choices.data?.reasons.find((each) => each.name === reason)?.freeText === true
  const labels = choices.data?.statusLabels ?? {}
  const move: BulkMoveRequest = {
    to,
    ...(reason ? { reason } : {}),
    ...(freeText ? { reasonText } : {}),
    ...(note.trim() ? { note } : {}),
    ...(scope === 'checked' ? { ids: checkedIds } : { filter }),
  }
  const moveKey = JSON.stringify(move)
  const isPreviewed = preview?.key === moveKey
  const isRunning = job !== undefined && (job.status === 'queued' || job.status === 'running')

  const callbacks = useRef({ onMoved, onUnauthorized })
  useLayoutEffect(() => {
    callbacks.current = { onMoved, onUnauthorized }
  })
  useEffect(() => {
    if (job === undefined || !(job.status === 'queued' || job.status === 'running')) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      fetchBulkMoveJob({ id: job.id, signal: controller.signal }).then(
        (next) => {
          setJob(next)
          if (next.status === 'done' || next.status === 'failed') callbacks.current.onMoved()
        },
        (error: unknown) => {
          if (controller.signal.aborted) return
          if (isUnauthorized(error)) return callbacks.current.onUnauthorized()
          // the next poll tries again
          setJob({ ...job })
        },
      )
    }, POLL_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [job])

  const refused = (error: unknown) => {
    if (isUnauthorized(error)) return onUnauthorized()
    setProblem(`${error instanceof Error ? error.message : String(error)}.`)
  }

  async function showPreview() {
    setProblem(undefined)
    setIsSending(true)
    try {
      setPreview({ key: moveKey, data: await previewBulkMove({ slug, move }) })
    } catch (error) {
      refused(error)
    } finally {
      setIsSending(false)
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!isPreviewed) return
    setProblem(undefined)
    setIsSending(true)
    try {
      const started = await startBulkMove({ slug, move })
      setJob({ id: started.id, app: slug, to, status: 'queued', total: started.total, moved: 0, skipped: 0 })
      setPreview(undefined)
    } catch (error) {
      refused(error)
    } finally {
      setIsSending(false)
    }
  }

  if (choices.status === 'failed') {
    return (
      <section className="staff-panel bulk-move" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Move these claims</h2>
        <p className="alert" role="alert">
          The moves could not be loaded: {choices.message}. Press Refresh to try again.
        </p>
      </section>
    )
  }
  return (
    <section className="staff-panel bulk-move" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Move these claims</h2>
      <form className="move-form" onSubmit={(event) => void submit(event)}>
        {filter === undefined ? (
          <p>The checked claims ({checkedIds.length}).</p>
        ) : (
          <fieldset disabled={isRunning}>
            <legend>Which claims</legend>
            <label className="move-choice">
              <input
                type="radio"
                name={`${id}-scope`}
                checked={scope === 'checked'}
                disabled={checkedIds.length === 0}
                onChange={() => setScope('checked')}
              />
              The checked rows ({checkedIds.length})
            </label>
            <label className="move-choice">
              <input
                type="radio"
                name={`${id}-scope`}
                checked={scope === 'filter'}
                onChange={() => setScope('filter')}
              />
              Everything the current filter shows{filterCount === undefined ? '' : ` (${filterCount})`}
            </label>
          </fieldset>
        )}
        <fieldset disabled={isRunning}>
          <legend>Move to</legend>
          {(choices.data?.targets ?? []).map((each) => (
            <label key={each.to} className="move-choice">
              <input
                type="radio"
                name={`${id}-to`}
                value={each.to}
                checked={each.to === to}
                required
                onChange={() => setTo(each.to)}
              />
              {each.label}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-reason`}>Reason{target?.needsReason ? '' : ' (optional)'}</label>
        <select
          id={`${id}-reason`}
          className="form-control"
          value={reason}
          disabled={isRunning}
          required={target?.needsReason === true}
          onChange={(event) => setReason(event.target.value)}
        >
          <option value="">{target?.needsReason ? 'Choose a reason' : 'No reason'}</option>
          {(choices.data?.reasons ?? []).map((each) => (
            <option key={each.name} value={each.name}>
              {each.label}
            </option>
          ))}
        </select>
        {freeText ? (
          <>
            <label htmlFor={`${id}-reason-text`}>What the claimants are told</label>
            <textarea
              id={`${id}-reason-text`}
              className="form-control"
              value={reasonText}
              required
              disabled={isRunning}
              maxLength={MAX_REVIEW_NOTE_LENGTH}
              onChange={(event) => setReasonText(event.target.value)}
            />
          </>
        ) : null}
        <label htmlFor={`${id}-note`}>Internal note (never shown to the claimants, optional)</label>
        <textarea
          id={`${id}-note`}
          className="form-control"
          value={note}
          disabled={isRunning}
          maxLength={MAX_REVIEW_NOTE_LENGTH}
          onChange={(event) => setNote(event.target.value)}
        />
        <div className="action-row">
          <button
            type="button"
            className="secondary"
            disabled={isSending || isRunning || to === ''}
            onClick={() => void showPreview()}
          >
            Preview
          </button>
          <button type="submit" className="primary" disabled={isSending || isRunning || !isPreviewed}>
            Move
          </button>
        </div>
        <p className="move-outcome" role="status">
          {isPreviewed ? previewSentence(preview.data, labels, target?.label ?? to) : ''}
        </p>
        {isPreviewed ? <AttentionList slug={slug} attention={preview.data.attention} /> : null}
        {problem ? (
          <p className="alert" role="alert">
            Nothing was moved: {problem}
          </p>
        ) : null}
      </form>
      {job ? <JobProgress job={job} label={labels[job.to] ?? job.to} /> : null}
    </section>
  )
}

function JobProgress({ job, label }: { job: BulkMoveJob; label: string }) {
  const id = useId()
  const skipped = job.skipped > 0 ? `, ${job.skipped} skipped` : ''
  const text =
    job.status === 'done'
      ? `Done: ${job.moved} of ${job.total} moved to ${label}${skipped}.`
      : job.status === 'failed'
        ? `The move stopped: ${job.moved} of ${job.total} moved to ${label}${skipped}. The rest were not moved; try again.`
        : `${job.moved} of ${job.total} moved${skipped}`
  return (
    <div className="bulk-progress">
      <label htmlFor={`${id}-progress`}>Moving to {label}</label>
      <progress id={`${id}-progress`} max={Math.max(job.total, 1)} value={job.moved + job.skipped} />
      <p
        className={job.status === 'failed' ? 'alert' : 'move-outcome'}
        role={job.status === 'failed' ? 'alert' : 'status'}
      >
        {text}
      </p>
    </div>
  )
}

const ATTENTION_TEXT: Record<BulkAttention, (count: number) => string> = {
  flagged: (n) => `${n} flagged as a duplicate screenshot`,
  disowned: (n) => `${n} disowned by the owner of ${n === 1 ? 'its' : 'their'} e-mail`,
  unconfirmed: (n) => `${n} with a main form not confirmed by the claimant`,
}

/**
 * Of the claims the move would take, those to look at before moving them all, each named with a link
 * to its details: a bulk approval should not carry a flagged or disowned claim unseen.
 */
function AttentionList({ slug, attention }: { slug: string; attention: BulkMovePreview['attention'] }) {
  const kinds = BULK_ATTENTION.filter((kind) => attention[kind].count > 0)
  if (kinds.length === 0) return null
  return (
    <div className="bulk-attention">
      <p>Among them, look at these first:</p>
      <ul>
        {kinds.map((kind) => {
          const { count, ids } = attention[kind]
          return (
            <li key={kind}>
              {ATTENTION_TEXT[kind](count)}:{' '}
              {ids.map((id, index) => (
                <span key={id}>
                  {index > 0 ? ', ' : ''}
                  <a href={`/${slug}-admin?claim=${id}`}>claim {id}</a>
                </span>
              ))}
              {count > ids.length ? ` and ${count - ids.length} more` : ''}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/** "312 claims will move from Received to In review. 4 cannot move from Approved." */
export function previewSentence(
  preview: BulkMovePreview,
  labels: Record<string, string>,
  toLabel: string,
): string {
  const named = (counts: Record<string, number>) => {
    const entries = Object.entries(counts)
    const parts = entries.map(
      ([status, n]) => `${labels[status] ?? status}${entries.length > 1 ? ` (${n})` : ''}`,
    )
    return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '')
  }
  const claims = (n: number) => `${n} ${n === 1 ? 'claim' : 'claims'}`
  const moving =
    preview.count === 0
      ? `No claim of this selection can move to ${toLabel}.`
      : `${claims(preview.count)} will move from ${named(preview.from)} to ${toLabel}.`
  const cannot = Object.values(preview.skipped).reduce((sum, n) => sum + n, 0)
  return cannot === 0 ? moving : `${moving} ${claims(cannot)} cannot move from ${named(preview.skipped)}.`
}
