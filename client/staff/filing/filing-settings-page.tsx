import { useEffect } from 'react'
import type { FeeTier, FilingField, FilingSettingsView } from '../../../src/filing-config.ts'
import { fetchJson } from '../../http.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { formatUsd } from '../shared/format.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { StaffHeader } from '../sign-in/staff-header.tsx'

/** What each source field of a provider's column is, in a paralegal's words. */
const FIELD_LABELS: Record<FilingField, string> = {
  rowId: "The claimant's row ID in the batch",
  claimId: 'The claim ID',
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name',
  street: 'Street address',
  addressLine2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'ZIP code',
  email: 'E-mail',
  phone: 'Phone',
  app: 'The app',
  respondent: "The respondent's legal name",
  respondentAddress: "The respondent's notice address",
  representativeName: "The first representative's name",
  representativeBarNumber: "The first representative's bar number",
  representativeEmail: "The first representative's e-mail",
  representativePhone: "The first representative's phone",
  representativeFirm: "The first representative's firm",
  filedAt: 'When the claim was filed with the firm',
}

const count = (n: number) => n.toLocaleString('en-US')

/** A fee tier's cases as a row's heading: "Each case", "Cases 501–1,500, each", "Cases 1,501 and up, each". */
function tierCases({ fromCase, toCase }: FeeTier): string {
  if (toCase === null) return fromCase === 1 ? 'Each case' : `Cases ${count(fromCase)} and up, each`
  return `Cases ${count(fromCase)}–${count(toCase)}, each`
}

/**
 * The app's filing settings as its config sets them: who is noticed and sued, after how long, with which
 * provider and its spreadsheet's columns, by which attorneys, under which clause. Read-only: they change
 * in forms/, where the server checks them at start-up.
 */
export function FilingSettingsPage({ slug, session }: { slug: string; session: StaffSession }) {
  const settings = useStaffResource({
    key: slug,
    load: (signal) =>
      fetchJson<FilingSettingsView>(`/api/staff/apps/${encodeURIComponent(slug)}/filing`, {
        signal,
        cache: 'no-store',
      }),
    onUnauthorized: session.expired,
  })
  const data = settings.data
  const title = `${data?.appName ?? slug} Filing Settings`
  useEffect(() => {
    document.title = title
  }, [title])
  return (
    <article className="card filing-settings">
      <StaffHeader
        title={title}
        lead={`Read-only: set in forms/${slug}.json and forms/base/filing.json`}
        session={session}
      />
      <div className="card-body">
        <p>
          <Link to={`/${slug}-admin`}>Back to the {data?.appName ?? slug} dashboard</Link>
        </p>
        {settings.status === 'failed' ? (
          <p className="alert" role="alert">
            {settings.message}
          </p>
        ) : !data ? (
          <Loading />
        ) : (
          <FilingSettingsBody settings={data} />
        )}
      </div>
    </article>
  )
}

function FilingSettingsBody({ settings }: { settings: FilingSettingsView }) {
  const { respondent, profile } = settings
  const required = new Set(profile.required)
  return (
    <>
      <section aria-labelledby="filing-respondent">
        <h2 id="filing-respondent">Respondent</h2>
        {respondent ? (
          <dl className="details">
            <dt>Legal name</dt>
            <dd>{respondent.legalName}</dd>
            <dt>Notice address</dt>
            <dd>
              {respondent.noticeAddress.map((line) => (
                <span key={line} className="address-line">
                  {line}
                </span>
              ))}
            </dd>
          </dl>
        ) : (
          <p className="alert">
            No respondent is set: this app&apos;s claims cannot be noticed or filed until forms/{settings.app}
            .json names one under &quot;filing&quot;.
          </p>
        )}
      </section>

      <section aria-labelledby="filing-timing">
        <h2 id="filing-timing">Notice and filing</h2>
        <dl className="details">
          <dt>Waiting period</dt>
          <dd>
            {settings.waitingPeriodDays} days after the notice of dispute is sent, before a demand may be
            filed
          </dd>
          <dt>Amount claimed</dt>
          <dd>
            {formatUsd(settings.amountClaimedUsd)} a claimant, named in each demand; set as{' '}
            <code>amountClaimedUsd</code> in forms/base/filing.json, or in the app&apos;s own
            &quot;filing&quot;
          </dd>
          <dt>Provider</dt>
          <dd>
            {profile.name} (forms/providers/{settings.provider}.json), with counsel&apos;s {profile.statement}
          </dd>
          <dt>Notice template</dt>
          <dd>notices/{settings.noticeTemplate}.hbs</dd>
          <dt>Demand template</dt>
          <dd>demands/{settings.demandTemplate}.hbs</dd>
        </dl>
      </section>

      <section aria-labelledby="filing-representatives">
        <h2 id="filing-representatives">Representatives</h2>
        <TableRegion
          label="Representatives table"
          headings={['Name', 'Bar number', 'Firm', 'E-mail', 'Phone']}
        >
          {settings.representatives.map((person) => (
            <tr key={`${person.name} ${person.barNumber}`}>
              <td>{person.name}</td>
              <td>{person.barNumber}</td>
              <td>{person.firm}</td>
              <td>{person.email}</td>
              <td>{person.phone}</td>
            </tr>
          ))}
        </TableRegion>
      </section>

      <section aria-labelledby="filing-columns">
        <h2 id="filing-columns">{profile.name} spreadsheet</h2>
        <TableRegion label="Spreadsheet columns table" headings={['Column', 'Takes', 'Required to file']}>
          {profile.columns.map((column) => (
            <tr key={column.header}>
              <td>{column.header}</td>
              <td>{FIELD_LABELS[column.field]}</td>
              <td>{required.has(column.field) ? 'Required' : '—'}</td>
            </tr>
          ))}
        </TableRegion>
      </section>

      <section aria-labelledby="filing-fees">
        <h2 id="filing-fees">Fee estimate</h2>
        <p>{profile.fees.note}</p>
        <TableRegion label="Fee table" headings={['Fee', 'Claimant side', 'Respondent']}>
          <tr>
            <th scope="row">Once for the whole filing</th>
            <td>{formatUsd(profile.fees.perBatch.claimant)}</td>
            <td>{formatUsd(profile.fees.perBatch.respondent)}</td>
          </tr>
          {profile.fees.tiers.map((tier) => (
            <tr key={tier.fromCase}>
              <th scope="row">{tierCases(tier)}</th>
              <td>{formatUsd(tier.claimantPerCase)}</td>
              <td>{formatUsd(tier.respondentPerCase)}</td>
            </tr>
          ))}
        </TableRegion>
      </section>

      <section aria-labelledby="filing-clause">
        <h2 id="filing-clause">Arbitration clause</h2>
        <blockquote className="filing-clause">{settings.clause}</blockquote>
      </section>
    </>
  )
}
