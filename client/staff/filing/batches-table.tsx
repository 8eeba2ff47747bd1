import { NOTICE_METHOD_LABELS, type Batch } from '../../../src/api/filing-batches.ts'
import { Link } from '../../routing/router.tsx'
import { formatDateTime, formatLongDay, formatUsd } from '../shared/format.ts'
import { batchZipHref, evidenceZipHref } from './batch-api.ts'
import { TableRegion } from '../shared/table-region.tsx'

/** "Notice batch 3", "Filing batch 4". */
export function batchName(batch: Pick<Batch, 'kind' | 'id'>): string {
  return `${batch.kind === 'notice' ? 'Notice' : 'Filing'} batch ${batch.id}`
}

/** One state a batch: a sent notice batch reads "Sent on …", a filing batch with every case number "Case numbers in". */
function statusText(batch: Batch): string {
  if (batch.status === 'building') return 'Building…'
  if (batch.status === 'failed') return `Failed: ${batch.problem ?? 'no reason was kept'}`
  if (batch.sent) return `Sent on ${formatLongDay(batch.sent.on)}`
  if (batch.kind === 'filing' && batch.claimCount > 0 && batch.caseNumbers >= batch.claimCount) {
    return 'Case numbers in'
  }
  return 'Ready'
}

/**
 * The app's batches, newest first: what each is, its state, its files and facts. What is left to do with
 * one (mark it sent, import its case numbers) is in the page's numbered steps.
 */
export function BatchesTable({
  slug,
  batches,
  canExport,
}: {
  slug: string
  batches: Batch[]
  canExport: boolean
}) {
  return (
    <TableRegion
      label="Batches table"
      headings={['Batch', 'Built', 'Claims', 'Status', 'Files and facts']}
      cards
    >
      {batches.length === 0 ? (
        <tr>
          <td colSpan={5} className="empty-row">
            No batch has been built yet.
          </td>
        </tr>
      ) : (
        batches.map((batch) => (
          <tr key={batch.id} data-batch-id={batch.id}>
            <th scope="row">{batchName(batch)}</th>
            <td data-label="Built">
              {formatDateTime(new Date(batch.createdAt).toISOString())}
              <span className="batch-by">by {batch.createdBy}</span>
            </td>
            <td data-label="Claims">{batch.claimCount.toLocaleString('en-US')}</td>
            <td className="batch-status" data-label="Status">
              {statusText(batch)}
            </td>
            <td className="batch-steps">
              {batch.status === 'ready' ? (
                <ReadyBatch slug={slug} batch={batch} canExport={canExport} />
              ) : batch.status === 'failed' ? (
                'Its claims can go into the next batch.'
              ) : (
                'The ZIP is being written.'
              )}
            </td>
          </tr>
        ))
      )}
    </TableRegion>
  )
}

function ReadyBatch({ slug, batch, canExport }: { slug: string; batch: Batch; canExport: boolean }) {
  const name = batchName(batch)
  return (
    <>
      {canExport ? (
        <p className="batch-links">
          <a className="button-link" href={batchZipHref(slug, batch.id)} download>
            Download ZIP<span className="visually-hidden"> of {name.toLowerCase()}</span>
          </a>
          {batch.kind === 'filing' ? (
            <a className="button-link" href={evidenceZipHref(slug, batch.id)} download>
              Evidence bundles (ZIP)<span className="visually-hidden"> of {name.toLowerCase()}</span>
            </a>
          ) : null}
        </p>
      ) : null}
      {batch.kind === 'notice' ? (
        batch.sent ? (
          <p>
            Sent on {formatLongDay(batch.sent.on)} by {NOTICE_METHOD_LABELS[batch.sent.method].toLowerCase()}
            {batch.sent.tracking ? ` (${batch.sent.tracking})` : ''}; may file from{' '}
            {formatLongDay(batch.sent.mayFileFrom)}
          </p>
        ) : (
          <p>Not marked sent yet (step 2).</p>
        )
      ) : (
        <FilingFacts batch={batch} />
      )}
      <p>
        <Link to={`/${slug}-admin?batch=${batch.id}`}>
          Show this batch&apos;s claims on the dashboard
          <span className="visually-hidden"> ({name.toLowerCase()})</span>
        </Link>
      </p>
    </>
  )
}

/** What counsel's statement names, what the provider will charge, and how many case numbers came back. */
function FilingFacts({ batch }: { batch: Batch }) {
  return (
    <>
      {batch.provider ? <p>Provider: {batch.provider}</p> : null}
      {batch.batchHash ? (
        <p>
          Batch hash: <code className="batch-hash">{batch.batchHash}</code>
        </p>
      ) : null}
      {batch.fees ? (
        <p>
          Estimated fees: claimant {formatUsd(batch.fees.claimant)}, respondent{' '}
          {formatUsd(batch.fees.respondent)}
          <span className="batch-note">{batch.fees.note}</span>
        </p>
      ) : null}
      <p>
        Case numbers: {batch.caseNumbers.toLocaleString('en-US')} of{' '}
        {batch.claimCount.toLocaleString('en-US')}
      </p>
    </>
  )
}
