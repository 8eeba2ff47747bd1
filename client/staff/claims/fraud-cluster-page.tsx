import { useEffect, useState, type ReactNode } from 'react'
import {
  FRAUD_KEY_LABELS,
  type FraudCluster,
  type FraudClusterClaim,
  type FraudKeyKind,
} from '../../../src/api/fraud.ts'
import { canDecideApp, type StaffAccountView } from '../../../src/api/staff.ts'
import type { FormConfig } from '../../../src/form-config.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { breakableEmail } from '../shared/breakable-email.tsx'
import { claimDashboardHref } from '../shared/staff-api.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { StaffHeader } from '../sign-in/staff-header.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { BulkMovePanel } from './bulk-move-panel.tsx'
import { fetchFraudCluster } from './fraud-api.ts'
import { FraudScoreCell } from './fraud-score-cell.tsx'

const HEADINGS = [
  'Move',
  'Claim',
  'App',
  'Name',
  'E-mail',
  'Phone',
  'Score',
  'Status',
  'Shared with this claim',
]

/**
 * /{app}-admin/claims/{id}/cluster: every claim tied to this one by a device, an e-mail (or a variant of
 * it), a phone, a postal address or a network the same day, with the keys each shares marked; for an
 * account with the decide right, the cluster's claims of this app checked for one bulk move (each
 * checked again by the server, as any move).
 */
export function FraudClusterPage({
  config,
  claimId,
  session,
}: {
  config: FormConfig
  claimId: number
  session: StaffSession & { account: StaffAccountView }
}) {
  const { slug, displayName } = config
  const canDecide = canDecideApp(session.account, slug)
  const [loads, setLoads] = useState(0)
  const cluster = useStaffResource({
    key: JSON.stringify([claimId, loads]),
    load: (signal) => fetchFraudCluster({ id: claimId, signal }),
    onUnauthorized: session.expired,
  })
  // the claims of this app are checked for the move until the reviewer unchecks one
  const [unchecked, setUnchecked] = useState(new Set<number>())
  const title = `Cluster of claim ${claimId}`
  useEffect(() => {
    document.title = `${title} · ${displayName}`
  }, [title, displayName])
  const data = cluster.data
  const movable = (data?.claims ?? []).filter((claim) => claim.app === slug)
  const checkedIds = movable.map((claim) => claim.id).filter((id) => !unchecked.has(id))
  return (
    <article className="card fraud-cluster-page">
      <StaffHeader
        title={title}
        lead="The claims that share a device, an e-mail, a phone, a postal address or a network (the same day) with it"
        session={session}
      />
      <div className="card-body">
        <p>
          <Link to={`/${encodeURIComponent(slug)}-admin/claims/${claimId}`}>Back to claim {claimId}</Link>
        </p>
        {cluster.status === 'failed' ? (
          <p className="alert" role="alert">
            The cluster could not be loaded: {cluster.message}. Reload the page to try again.
          </p>
        ) : !data ? (
          <Loading label="Loading the cluster…" />
        ) : (
          <>
            <ClusterSummary cluster={data} />
            <ClusterTable
              cluster={data}
              app={slug}
              checks={
                canDecide
                  ? {
                      isChecked: (id) => !unchecked.has(id),
                      onChange: (id, isChecked) => {
                        const next = new Set(unchecked)
                        if (isChecked) next.delete(id)
                        else next.add(id)
                        setUnchecked(next)
                      },
                    }
                  : undefined
              }
            />
            {canDecide && movable.length > 0 ? (
              <BulkMovePanel
                slug={slug}
                checkedIds={checkedIds}
                onMoved={() => setLoads((n) => n + 1)}
                onUnauthorized={session.expired}
                filterCount={undefined}
              />
            ) : null}
          </>
        )}
      </div>
    </article>
  )
}

/** "Shared: Device (10 claims), Network (2 claims)" and a word when the list is cut. */
function ClusterSummary({ cluster }: { cluster: FraudCluster }) {
  const shared = cluster.keys.filter((key) => key.count > 1)
  return (
    <div className="cluster-summary" role="status">
      <p>
        {cluster.claims.length} {cluster.claims.length === 1 ? 'claim' : 'claims'}
        {shared.length === 0
          ? ': no other claim shares a key with this one.'
          : `. Shared: ${shared.map((key) => `${FRAUD_KEY_LABELS[key.kind]} (${key.count} claims)`).join(', ')}.`}
      </p>
      {cluster.isCapped ? (
        <p className="alert">
          More claims share these keys than the list holds: it shows the {cluster.claims.length} sharing the
          most.
        </p>
      ) : null}
    </div>
  )
}

function ClusterTable({
  cluster,
  app,
  checks,
}: {
  cluster: FraudCluster
  app: string
  checks:
    { isChecked: (id: number) => boolean; onChange: (id: number, isChecked: boolean) => void } | undefined
}) {
  const headings = checks ? HEADINGS : HEADINGS.slice(1)
  return (
    <TableRegion label="Cluster table" headings={headings} cards>
      {cluster.claims.map((claim) => {
        const isThis = claim.id === cluster.claimId
        const marked = (kind: FraudKeyKind, content: ReactNode) =>
          claim.shared.includes(kind) ? <mark className="shared-signal">{content}</mark> : content
        return (
          <tr key={claim.id} data-claim-id={claim.id} className={isThis ? 'is-selected' : undefined}>
            {checks ? (
              <td data-label="Move">
                {claim.app === app ? (
                  <input
                    type="checkbox"
                    aria-label={`Move claim ${claim.id}`}
                    checked={checks.isChecked(claim.id)}
                    onChange={(event) => checks.onChange(claim.id, event.target.checked)}
                  />
                ) : (
                  <span className="hint">Another app</span>
                )}
              </td>
            ) : null}
            <th scope="row">
              <a href={claimDashboardHref(claim)}>Claim {claim.id}</a>
              {isThis ? <span className="batch-by">This claim</span> : null}
            </th>
            <td data-label="App">{claim.appName}</td>
            <td data-label="Name">
              {claim.firstName} {claim.lastName}
            </td>
            <td data-label="E-mail">{marked('email', breakableEmail(claim.email))}</td>
            <td data-label="Phone">{marked('phone', claim.phoneNumber)}</td>
            <td data-label="Score">
              <FraudScoreCell score={claim.score} standing={claim.standing} />
            </td>
            <td data-label="Status">{claim.statusLabel}</td>
            <td data-label="Shared">
              <SharedKeys claim={claim} isThis={isThis} />
            </td>
          </tr>
        )
      })}
    </TableRegion>
  )
}

/** The keys a claim shares with this one, each marked; this claim's own row says so. */
function SharedKeys({ claim, isThis }: { claim: FraudClusterClaim; isThis: boolean }) {
  if (isThis) return '—'
  return (
    <ul className="shared-keys">
      {claim.shared.map((kind) => (
        <li key={kind}>
          <mark className="shared-signal">{FRAUD_KEY_LABELS[kind]}</mark>
        </li>
      ))}
    </ul>
  )
}
