import { useState } from 'react'
import { downloadAgreement, type Contact, type FoundAgreement } from './api.ts'

function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}

/** One signed agreement: its details, the text exactly as signed, and its downloads. */
export function FoundAgreementCard({ agreement, contact }: { agreement: FoundAgreement; contact: Contact }) {
  const [busy, setBusy] = useState<'html' | 'pdf'>()
  const [failure, setFailure] = useState<string>()
  const download = async (format: 'html' | 'pdf') => {
    setBusy(format)
    setFailure(undefined)
    try {
      await downloadAgreement({ contact, claimId: agreement.claimId, format })
    } catch (error) {
      setFailure(`The download failed: ${(error as Error).message}. Please try again.`)
    } finally {
      setBusy(undefined)
    }
  }
  const signedOn = longDate(agreement.signedAt)
  return (
    <article className="found-agreement">
      <p className="found-line">
        We found your {agreement.appName} agreement signed on {signedOn}.
      </p>
      <dl className="details">
        <dt>Name</dt>
        <dd>
          {agreement.firstName} {agreement.lastName}
        </dd>
        <dt>Email</dt>
        <dd>{agreement.email}</dd>
        <dt>Phone</dt>
        <dd>{agreement.phoneNumber}</dd>
        <dt>Date Signed</dt>
        <dd>{signedOn}</dd>
        <dt>Cash Advances</dt>
        <dd>
          {agreement.cashAdvanceCount} {agreement.cashAdvanceCount === 1 ? 'time' : 'times'}
        </dd>
        <dt>Membership</dt>
        <dd>
          {agreement.membershipMonths} {agreement.membershipMonths === 1 ? 'month' : 'months'}
        </dd>
      </dl>
      {agreement.html.trim() ? (
        <div
          className="agreement-scroll"
          // the stored record, rendered by our escaping templates when it was signed
          dangerouslySetInnerHTML={{ __html: agreement.html }}
          tabIndex={0}
          aria-label={`${agreement.appName} agreement as signed`}
        />
      ) : (
        <p className="hint">
          No agreement text was shown on the {agreement.appName} claim form; the download holds your signature
          and the claim's audit details.
        </p>
      )}
      <div className="download-actions">
        <button
          type="button"
          className="submit"
          onClick={() => void download('html')}
          disabled={busy !== undefined}
        >
          {busy === 'html' ? 'Downloading...' : 'Download Agreement'}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => void download('pdf')}
          disabled={busy !== undefined}
        >
          {busy === 'pdf' ? 'Downloading...' : 'Download PDF'}
        </button>
      </div>
      <p className="hint">
        The downloaded file includes your signature and the terms of the agreement exactly as you signed it.
      </p>
      {failure ? (
        <p className="alert" role="alert">
          {failure}
        </p>
      ) : null}
    </article>
  )
}
