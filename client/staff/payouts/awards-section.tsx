import { useId, useState, type Ref } from 'react'
import type { AwardsImported } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { Loading } from '../../ui/loading.tsx'
import { CsvImportForm } from '../filing/csv-import-form.tsx'
import { Pagination } from '../shared/pagination.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { AwardForm } from './award-form.tsx'
import { AwardsTable } from './awards-table.tsx'
import { fetchAwards, importAwards } from './payout-api.ts'
import { SettlementForm } from './settlement-form.tsx'

/** Awards a page of the list shows. */
export const AWARD_PAGE_SIZE = 50

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
/** The costs advanced beside a total, when there are any. */
const costsText = (cents: number) => (cents === 0 ? '' : `, with ${formatCents(cents)} of costs advanced`)

/**
 * The app's awards: their count, total and costs advanced, one claim's award typed, the provider's
 * award file and a settlement (with the decide right; with the payments right alone, the costs
 * advanced on an award), and the list a page at a time. An award changes what a payout batch could
 * take: `onChanged` tells the page.
 */
export function AwardsSection({
  id,
  headingRef,
  slug,
  displayName,
  canDecide,
  canPay,
  onChanged,
  onUnauthorized,
}: {
  id: string
  headingRef: Ref<HTMLHeadingElement>
  slug: string
  displayName: string
  canDecide: boolean
  canPay: boolean
  onChanged: () => void
  onUnauthorized: () => void
}) {
  const formsId = useId()
  const [page, setPage] = useState(1)
  const [changes, setChanges] = useState(0)
  const list = useStaffResource({
    key: `${slug}:${page}:${changes}`,
    load: (signal) => fetchAwards({ slug, page, pageSize: AWARD_PAGE_SIZE, signal }),
    onUnauthorized,
  })
  const awarded = () => {
    setPage(1)
    setChanges((n) => n + 1)
    onChanged()
  }
  const data = list.data

  return (
    <section id={id} className="payouts-part" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        Awards
      </h2>
      {data ? (
        <p className="payouts-totals">
          {data.totals.count === 0
            ? 'No claim has an award yet.'
            : `${plural(data.totals.count, 'award', 'awards')}, ${formatCents(data.totals.grossCents)} in all${costsText(data.totals.costsCents)}.`}
        </p>
      ) : null}
      {canDecide ? (
        <div className="payouts-forms">
          <section aria-labelledby={`${formsId}-one`}>
            <h3 id={`${formsId}-one`}>Enter a claim&apos;s award</h3>
            <AwardForm canDecide onSaved={awarded} onUnauthorized={onUnauthorized} />
          </section>
          <section aria-labelledby={`${formsId}-import`}>
            <h3 id={`${formsId}-import`}>Import an award file</h3>
            <CsvImportForm<AwardsImported>
              title={{ form: 'Import an award file', button: 'Import awards' }}
              fileLabel="Award CSV (Case Number or Row ID, Award, and optionally Costs)"
              unit="award"
              send={(csv) => importAwards({ slug, csv })}
              doneText={({ imported, totalCents, costsCents }) =>
                `${plural(imported, 'award', 'awards')} imported, ${formatCents(totalCents)} in all${costsText(costsCents)}.`
              }
              focusOutcome
              onImported={awarded}
              onUnauthorized={onUnauthorized}
            />
          </section>
          <section aria-labelledby={`${formsId}-settlement`}>
            <h3 id={`${formsId}-settlement`}>Share a settlement</h3>
            <SettlementForm
              slug={slug}
              displayName={displayName}
              onCreated={awarded}
              onUnauthorized={onUnauthorized}
            />
          </section>
        </div>
      ) : (
        <>
          <p className="batch-note">
            Entering and importing awards and sharing settlements needs the app&apos;s decide right, which an
            admin grants.
          </p>
          {canPay ? (
            <section aria-labelledby={`${id}-costs`}>
              <h3 id={`${id}-costs`}>Enter the costs advanced on a claim</h3>
              <AwardForm canDecide={false} onSaved={awarded} onUnauthorized={onUnauthorized} />
            </section>
          ) : null}
        </>
      )}
      <h3>The awards</h3>
      {list.status === 'failed' ? (
        <p className="alert" role="alert">
          The awards could not be loaded: {list.message}. Reload the page to try again.
        </p>
      ) : !data ? (
        <Loading label="Loading the awards..." />
      ) : (
        <>
          <AwardsTable slug={slug} awards={data.awards} />
          <Pagination page={page} pageSize={AWARD_PAGE_SIZE} count={data.totals.count} onPage={setPage} />
        </>
      )}
    </section>
  )
}
