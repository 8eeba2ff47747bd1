import { useEffect, useId, useRef, useState } from 'react'
import type { BatchList } from '../../../src/api/filing-batches.ts'
import { canDecideApp, canExportApp, type StaffAccountView } from '../../../src/api/staff.ts'
import type { FormConfig } from '../../../src/form-config.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { StaffUserBar } from '../staff-user-bar.tsx'
import type { StaffSession } from '../use-staff-session.ts'
import { useStaffResource } from '../use-staff-resource.ts'
import { fetchBatches } from './batch-api.ts'
import { BatchCandidatesSection } from './batch-candidates-section.tsx'
import { batchName, BatchesTable } from './batches-table.tsx'

/** How often the list is read again while a batch is being built. */
const POLL_MS = 2_000

/**
 * The app's notices of dispute and filings: the claims that can go into the next batch of each kind,
 * building one, and the batches built, with their ZIPs, the notice's sending, the fees and the case
 * numbers. Building, marking and importing need the app's decide right; the ZIPs its export right.
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
  const [finished, setFinished] = useState('')
  const statuses = useRef(new Map<number, string>())
  const list = useStaffResource({
    key: `${slug}:${changes}:${polls}`,
    load: async (signal) => {
      const answer: BatchList = await fetchBatches({ slug, signal })
      // say so when a batch this page saw building is ready or failed
      const ended = answer.batches.filter(
        (batch) => statuses.current.get(batch.id) === 'building' && batch.status !== 'building',
      )
      statuses.current = new Map(answer.batches.map((batch) => [batch.id, batch.status]))
      if (ended.length > 0) {
        setFinished(
          ended
            .map((batch) => `${batchName(batch)} ${batch.status === 'ready' ? 'is ready' : 'failed'}.`)
            .join(' '),
        )
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

  return (
    <article className="card filing-settings filing-batches">
      <header className="card-header staff-header">
        <div>
          <h1>{title}</h1>
          <p>Notices of dispute to the respondent, then the filings with the provider</p>
        </div>
        <StaffUserBar session={session} />
      </header>
      <div className="card-body">
        <nav aria-label={`${displayName} pages`} className="batch-nav">
          <Link to={`/${slug}-admin`}>Back to the {displayName} dashboard</Link>
          <Link to={`/${slug}-admin/filing`}>Filing settings</Link>
        </nav>
        {(['notice', 'filing'] as const).map((kind) => (
          <BatchCandidatesSection
            key={kind}
            slug={slug}
            kind={kind}
            loadKey={candidatesKey}
            canDecide={canDecide}
            onChanged={changed}
            onUnauthorized={session.expired}
          />
        ))}
        <section aria-labelledby={`${id}-batches`}>
          <h2 id={`${id}-batches`}>Batches</h2>
          <p className="move-outcome" role="status">
            {finished}
          </p>
          {list.status === 'failed' ? (
            <p className="alert" role="alert">
              The batches could not be loaded: {list.message}. Reload the page to try again.
            </p>
          ) : !batches ? (
            <Loading label="Loading the batches..." />
          ) : (
            <BatchesTable
              slug={slug}
              batches={batches}
              canDecide={canDecide}
              canExport={canExport}
              onChanged={changed}
              onUnauthorized={session.expired}
            />
          )}
        </section>
      </div>
    </article>
  )
}
