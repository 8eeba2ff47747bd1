import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import type { BulkMoveJob } from '../../../src/api/bulk-moves.ts'
import {
  RESPONDENT_LIST_LABELS,
  RESPONDENT_LISTS,
  type RespondentList,
  type RespondentListImported,
} from '../../../src/api/respondent-list.ts'
import { isUnauthorized } from '../shared/staff-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'
import { askForAccountProof, fetchMoveJob, importRespondentList } from './respondent-list-api.ts'

/** How often the account-proof move's progress is read while it runs. */
const POLL_MS = 1_000

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/**
 * The company's list, for admins: the respondent's CSV of people it says are not its customers (or are
 * duplicates) is matched against the app's claims; those it names are flagged and scored again, and the
 * lines that name none are listed. One button then asks the claims it named to prove their account.
 */
export function RespondentListSection({
  slug,
  onChanged,
  onUnauthorized,
}: {
  slug: string
  /** Claims were flagged or moved: the steps' counts are read again. */
  onChanged: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const fileRef = useRef<HTMLInputElement>(null)
  const [list, setList] = useState<RespondentList>('not_customer')
  const [isSending, setIsSending] = useState(false)
  const [imported, setImported] = useState<RespondentListImported>()
  const [refusal, setRefusal] = useState<Refusal>()
  const [job, setJob] = useState<BulkMoveJob>()
  const [asked, setAsked] = useState<Refusal>()

  const callbacks = useRef({ onChanged, onUnauthorized })
  useLayoutEffect(() => {
    callbacks.current = { onChanged, onUnauthorized }
  })
  useEffect(() => {
    if (job === undefined || !(job.status === 'queued' || job.status === 'running')) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      fetchMoveJob({ id: job.id, signal: controller.signal }).then(
        (next) => {
          setJob(next)
          if (next.status === 'done' || next.status === 'failed') callbacks.current.onChanged()
        },
        (error: unknown) => {
          if (controller.signal.aborted) return
          if (isUnauthorized(error)) return callbacks.current.onUnauthorized()
          setJob({ ...job }) // the next poll tries again
        },
      )
    }, POLL_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [job])

  async function submit(event: FormEvent) {
    event.preventDefault()
    const file = fileRef.current?.files?.[0]
    if (!file) return
    setIsSending(true)
    setImported(undefined)
    setRefusal(undefined)
    setJob(undefined)
    setAsked(undefined)
    try {
      setImported(await importRespondentList({ slug, list, csv: await file.text() }))
      if (fileRef.current) fileRef.current.value = ''
      onChanged()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf("The company's list was not imported", error))
    } finally {
      setIsSending(false)
    }
  }

  async function askForProof(claimIds: number[]) {
    setAsked(undefined)
    try {
      const started = await askForAccountProof({ slug, claimIds })
      setJob({
        id: started.id,
        app: slug,
        to: '',
        status: 'queued',
        total: started.total,
        moved: 0,
        skipped: 0,
      })
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setAsked(refusalOf('No claimant was asked to prove their account', error))
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="respondent-list">
      <h2 id={`${id}-heading`}>The company&apos;s list</h2>
      <p>
        The respondent&apos;s list of people it says are not its customers, or are duplicates: a CSV with an
        e-mail, a phone or a claim reference column (&quot;E-mail&quot;, &quot;Phone&quot;, &quot;Claim
        ID&quot; or &quot;Row ID&quot;). Each claim it names is flagged and scored again, so the fraud hold
        keeps it out of batches.
      </p>
      <form
        className="move-form batch-form"
        aria-label="Import the company's list"
        onSubmit={(event) => void submit(event)}
      >
        <fieldset>
          <legend>Which list</legend>
          {RESPONDENT_LISTS.map((value) => (
            <label key={value} className="move-choice">
              <input
                type="radio"
                name={`${id}-list`}
                value={value}
                checked={list === value}
                onChange={() => setList(value)}
              />
              {RESPONDENT_LIST_LABELS[value]}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-file`}>The company&apos;s CSV</label>
        <input
          id={`${id}-file`}
          ref={fileRef}
          className="form-control"
          type="file"
          accept=".csv,text/csv"
          required
        />
        <button type="submit" className="primary" disabled={isSending}>
          {isSending ? 'Importing…' : "Import the company's list"}
        </button>
        <div className="move-outcome" role="status">
          {imported ? <Imported imported={imported} /> : null}
        </div>
        {refusal ? <RefusalAlert refusal={refusal} /> : null}
      </form>
      {imported && imported.matched > 0 ? (
        <div className="action-row">
          <button
            type="button"
            disabled={job !== undefined && job.status !== 'failed'}
            onClick={() => void askForProof(imported.claimIds)}
          >
            Ask them to prove their account
          </button>
        </div>
      ) : null}
      <p className="move-outcome" role="status">
        {job ? proofProgress(job) : ''}
      </p>
      {asked ? <RefusalAlert refusal={asked} /> : null}
    </section>
  )
}

/** What an import came to: the claims it named, and each line that named none. */
function Imported({ imported }: { imported: RespondentListImported }) {
  const { matched, lines, unmatched, unmatchedCount, list } = imported
  return (
    <>
      <p>
        {plural(matched, 'claim', 'claims')} matched of {plural(lines, 'line', 'lines')}
        {matched > 0 ? `, each flagged "${RESPONDENT_LIST_LABELS[list]}" and scored again` : ''}.
      </p>
      {unmatchedCount > 0 ? (
        <>
          <p>
            {plural(unmatchedCount, 'line names', 'lines name')} no claim of this app
            {unmatched.length < unmatchedCount ? ` (the first ${unmatched.length} are listed)` : ''}:
          </p>
          <ul className="batch-lacking">
            {unmatched.map(({ line, value }) => (
              <li key={line}>
                line {line}: {value}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  )
}

function proofProgress(job: BulkMoveJob): string {
  const skipped = job.skipped > 0 ? `; ${job.skipped} skipped, their status does not allow it` : ''
  if (job.status === 'done') {
    return `Done: ${job.moved} of ${job.total} asked to prove their account${skipped}.`
  }
  if (job.status === 'failed') {
    return `The request stopped: ${job.moved} of ${job.total} asked${skipped}. Press the button again for the rest.`
  }
  return `Asking ${plural(job.total, 'claimant', 'claimants')} to prove their account: ${job.moved} so far${skipped}…`
}
