import { Fragment, type Ref } from 'react'
import { Link } from '../../routing/router.tsx'
import { DetailsPanel } from '../shared/details-panel.tsx'
import { formatDateTime, fullName } from '../shared/format.ts'
import { claimHref, type IntakeSubmissionDetails } from '../shared/staff-api.ts'
import { STEP2_STATE_LABELS } from '../step2-state-labels.ts'

/**
 * An intake's 'Selected Submission Details', as the server answered it (the view is on record): the
 * claimant, the address, the eligibility answers as given, the signature, and per app listed its case
 * and Step 2 claim, which links to that claim on its app's dashboard.
 */
export function IntakeDetailsPanel({
  intake,
  onClose,
  ref,
}: {
  intake: IntakeSubmissionDetails
  onClose: () => void
  ref?: Ref<HTMLElement>
}) {
  const name = fullName(intake)
  return (
    <DetailsPanel ref={ref} onClose={onClose}>
      <dl className="details">
        <dt>ID</dt>
        <dd>{intake.id}</dd>
        <dt>Name</dt>
        <dd>{name}</dd>
        <dt>Email</dt>
        <dd>{intake.email}</dd>
        <dt>Phone</dt>
        <dd>{intake.phone}</dd>
        <dt>Address</dt>
        <dd>
          {intake.address}
          {intake.addressLine2 ? (
            <>
              <br />
              {intake.addressLine2}
            </>
          ) : null}
          <br />
          {intake.city}, {intake.state} {intake.zipCode}
        </dd>
        <dt>Submission date</dt>
        <dd>{formatDateTime(intake.createdAt)}</dd>
      </dl>

      <h3>Eligibility answers</h3>
      <dl className="details">
        {intake.answers.map(({ question, answer }) => (
          <Fragment key={question}>
            <dt>{question}</dt>
            <dd>{answer}</dd>
          </Fragment>
        ))}
      </dl>

      <h3>Signature</h3>
      <img
        className="signed-signature"
        src={intake.signature}
        alt={intake.typedSignature ? `Typed signature: ${intake.typedSignature}` : `Signature of ${name}`}
      />
      <p>{intake.signatureMethod === 'typed' ? 'Typed, drawn in a signature style' : 'Drawn'}</p>

      <h3>Cases</h3>
      <div className="table-scroll" role="region" aria-label="Cases table" tabIndex={0}>
        <table className="staff-table">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Case</th>
              <th scope="col">Step 2</th>
              <th scope="col">Claim</th>
              <th scope="col">Review status</th>
            </tr>
          </thead>
          <tbody>
            {intake.cases.map((found) => (
              <tr key={found.app} data-app={found.app}>
                <td>{found.appName}</td>
                <td>{found.caseId ?? '—'}</td>
                <td>{found.claim ? STEP2_STATE_LABELS.done : STEP2_STATE_LABELS.notStarted}</td>
                <td>
                  {found.claim ? (
                    <Link to={claimHref({ app: found.app, id: found.claim.id })}>Claim {found.claim.id}</Link>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-column="status">{found.claim ? found.claim.statusLabel : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>E-mails to the claimant</h3>
      <p>{journeyLine(intake.journey)}</p>
      {intake.disownedAt ? (
        <p className="alert" data-field="disowned">
          The owner of this e-mail said “This wasn&apos;t me” on {formatDateTime(intake.disownedAt)}: check
          this intake and its claims before filing.
        </p>
      ) : null}
      <p data-field="confirmed">
        {intake.confirmedAt
          ? `Confirmed by the claimant on ${formatDateTime(intake.confirmedAt)}.`
          : 'Not confirmed by the claimant yet.'}
      </p>
      {intake.unsubscribed ? (
        <p>
          Unsubscribed from reminders on {formatDateTime(intake.unsubscribed.at)} (
          {intake.unsubscribed.source === 'one-click' ? "the mail program's button" : "the e-mail's link"}).
        </p>
      ) : null}
    </DetailsPanel>
  )
}

/** What the claimant was e-mailed after the intake, in one sentence. */
function journeyLine(journey: IntakeSubmissionDetails['journey']): string {
  if (journey === null) return 'None: this intake came before the e-mails after the main form.'
  const reminders = journey.mailsSent - 1
  const sent =
    journey.mailsSent === 0
      ? 'Nothing sent yet'
      : `The copy with the Step 2 links${reminders > 0 ? ` and ${reminders} reminder${reminders > 1 ? 's' : ''}` : ''}`
  const last = journey.lastMailAt ? `, the last on ${formatDateTime(journey.lastMailAt)}` : ''
  const next = journey.nextDueAt ? `Next reminder: ${formatDateTime(journey.nextDueAt)}.` : 'No reminder due.'
  return `${sent}${last}. ${next}`
}
