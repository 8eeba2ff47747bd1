import { useEffect, useId, useRef, useState } from 'react'
import type { Batch, BatchKind, BatchList } from '../../../src/api/filing-batches.ts'
import { canDecideApp, canExportApp, type StaffAccountView } from '../../../src/api/staff.ts'
import type { FormConfig } from '../../../src/form-config.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { formatLongDay } from '../shared/format.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { fetchBatches } from './batch-api.ts'
import { BatchCandidatesSection } from './batch-candidates-section.tsx'
import { CaseNumbersStep, MarkSentStep } from './batch-follow-up-steps.tsx'
import { batchName, BatchesTable } from './batches-table.tsx'
import { RespondentListSection } from './respondent-list-section.tsx'
import { StaffHeader } from '../sign-in/staff-header.tsx'

/** How often the list is read again while a batch is being built. */
const POLL_MS = 2_000

/**
 * The app's notices of dispute and filings as four numbered steps, each with its state (build a notice
 * batch, mark it sent, build a filing batch, import case numbers), the company's list (admins), then
 * the batches built with their ZIPs and facts. Building, marking and importing need the app's decide
 * right; the ZIPs its export right.
 */
export function BatchesPage({
  config,
  session,
}: {
  config: FormConfig
  session: StaffSession & { account: StaffAccountView }
}) {
  const { slug, displayName } = config
  const id = useId()
  const canDecide = canDecideApp(session.account, slug)
  const canExport = canExportApp(session.account, slug)
  const title = `${displayName} Notices and Filing`
  useEffect(() => {
    document.title = title
  }, [title])

  // a batch built, sent, filed or given case numbers: the counts and the list are read again
  const [changes, setChanges] = useState(0)
  const changed = () => setChanges((n) => n + 1)
  const [polls, setPolls] = useState(0)
  // the batches this page started or saw building: each gets one line in its step, as it stands now
  const [followed, setFollowed] = useState<ReadonlySet<number>>(new Set())
  const follow = (batchId: number) => setFollowed((ids) => new Set([...ids, batchId]))
  const seen = useRef(new Set<number>())
  const list = useStaffResource({
    key: `${slug}:${changes}:${polls}`,
    load: async (signal) => {
      const answer: BatchList = await fetchBatches({ slug, signal })
      for (const batch of answer.batches) {
        if (batch.status === 'building' && !seen.current.has(batch.id)) {
          seen.current.add(batch.id)
          follow(batch.id)
        }
      }
      return answer
    },
    onUnauthorized: session.expired,
  })
  const batches = list.data?.batches
  const building = (batches ?? []).filter((batch) => batch.status === 'building')
  const isBuilding = building.length > 0
  useEffect(() => {
    if (!isBuilding || list.status !== 'ready') return
    const timer = setTimeout(() => setPolls((n) => n + 1), POLL_MS)
    return () => clearTimeout(timer)
  }, [isBuilding, list.status, list.data])
  // a batch that ends (or fails, releasing its claims) changes what the next one can take
  const candidatesKey = `${changes}:${building.map((batch) => batch.id).join(',')}`
  const newsOf = (kind: BatchKind) =>
    (batches ?? [])
      .filter((batch) => batch.kind === kind && followed.has(batch.id))
      .reverse()
      .map(batchNews)
  const stepProps = { slug, batches, canDecide, onChanged: changed, onUnauthorized: session.expired }
  const buildProps = (kind: BatchKind) => ({
    slug,
    kind,
    loadKey: candidatesKey,
    news: newsOf(kind),
    canDecide,
    onStarted: (batch: { id: number }) => {
      seen.current.add(batch.id)
      follow(batch.id)
      changed()
    },
    onChanged: changed,
    onUnauthorized: session.expired,
  })

  return (
    <article className="card filing-settings filing-batches">
      <StaffHeader
        title={title}
        lead="Notices of dispute to the respondent, then the filings with the provider"
        session={session}
      />
      <div className="card-body">
        <nav aria-label={`${displayName} pages`} className="batch-nav">
          <Link to={`/${slug}-admin`}>Back to the {displayName} dashboard</Link>
          <Link to={`/${slug}-admin/filing`}>Filing settings</Link>
        </nav>
        <ol className="batch-steps-list">
          <BatchCandidatesSection number={1} {...buildProps('notice')} />
          <MarkSentStep number={2} {...stepProps} />
          <BatchCandidatesSection number={3} {...buildProps('filing')} />
          <CaseNumbersStep number={4} {...stepProps} />
        </ol>
        {session.account.role === 'admin' ? (
          <RespondentListSection slug={slug} onChanged={changed} onUnauthorized={session.expired} />
        ) : null}
        <section aria-labelledby={`${id}-batches`}>
          <h2 id={`${id}-batches`}>Batches</h2>
          {list.status === 'failed' ? (
            <p className="alert" role="alert">
              The batches could not be loaded: {list.message}. Reload the page to try again.
            </p>
          ) : !batches ? (
            <Loading label="Loading the batches..." />
          ) : (
            <BatchesTable slug={slug} batches={batches} canExport={canExport} />
          )}
        </section>
      </div>
    </article>
  )
}

/** One line for a batch this page follows, as it stands now: building, ready, sent or failed. */
function batchNews(batch: Batch): string {
  const name = batchName(batch)
  if (batch.status === 'building') {
    return `${name} is being built: ${batch.claimCount.toLocaleString('en-US')} claim${batch.claimCount === 1 ? '' : 's'}.`
  }
  if (batch.status === 'failed') return `${name} failed; its claims can go into the next batch.`
  if (batch.sent) return `${name} was sent on ${formatLongDay(batch.sent.on)}.`
  return `${name} is ready.`
}
