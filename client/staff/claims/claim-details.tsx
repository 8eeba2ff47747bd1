import { useState, type ReactNode, type Ref } from 'react'
import { startDownload } from '../../http.ts'
import { DetailsPanel } from '../shared/details-panel.tsx'
import { formatDateTime, fullName } from '../shared/format.ts'
import { SignedRecordPanel } from './signed-record-panel.tsx'
import type { StaffClaimRow } from '../shared/staff-api.ts'

/**
 * 'Selected Submission Details': the claim as the server answered it (the view is on record), its
 * screenshot with the decision beside it, so the evidence and the move are on screen together, its fraud
 * score under them, then the claim's fields and signed record. The screenshot zooms in place (`isZoomed`).
 */
export function ClaimDetails({
  claim,
  canExport,
  onClose,
  onUnauthorized,
  decision,
  fraud,
  isZoomed,
  onZoom,
  ref,
  children,
}: {
  claim: StaffClaimRow
  /** Whether the account may take the claim's evidence away (the server checks again). */
  canExport: boolean
  onClose: () => void
  /** The session ended: back to the gate. */
  onUnauthorized: () => void
  /** The claim's review, beside the screenshot. */
  decision?: ReactNode
  /** The claim's fraud score and reasons, under the screenshot and the decision. */
  fraud?: ReactNode
  /** The screenshot at full size, scrolled within the panel. */
  isZoomed: boolean
  onZoom: (isZoomed: boolean) => void
  ref?: Ref<HTMLElement>
  /** More about the claim, under its details (a flagged claim's matches). */
  children?: ReactNode
}) {
  const name = fullName(claim)
  return (
    <DetailsPanel
      ref={ref}
      onClose={onClose}
      actions={
        canExport ? (
          <button
            type="button"
            className="secondary"
            onClick={() =>
              startDownload({
                href: `/api/staff/claims/${claim.id}/evidence.zip`,
                fileName: `claim-${claim.id}-evidence.zip`,
              })
            }
          >
            Download evidence
          </button>
        ) : null
      }
    >
      <div className={`decision-layout${isZoomed ? ' is-zoomed' : ''}`}>
        {/* keyed by claim, so a failed image does not hide the next claim's screenshot */}
        <Screenshot
          key={claim.id}
          url={claim.screenshotUrl}
          name={name}
          isZoomed={isZoomed}
          onZoom={onZoom}
        />
        {decision}
      </div>
      {fraud}
      <div className="details-layout">
        <dl className="details">
          <dt>Name</dt>
          <dd>{name}</dd>
          <dt>Email</dt>
          <dd>{claim.email}</dd>
          <dt>Phone</dt>
          <dd>{claim.phoneNumber}</dd>
          <dt>Cash advances taken</dt>
          <dd>{plural(claim.cashAdvanceCount, 'time')}</dd>
          <dt>Membership duration</dt>
          <dd>{plural(claim.membershipMonths, 'month')}</dd>
          <dt>Submission date</dt>
          <dd>{formatDateTime(claim.createdAt)}</dd>
          <dt>Confirmed by the claimant</dt>
          <dd>{claim.confirmedAt ? formatDateTime(claim.confirmedAt) : 'Not yet'}</dd>
          <dt>Came from</dt>
          <dd>{cameFrom(claim.attribution)}</dd>
        </dl>
      </div>
      <SignedRecordPanel claimId={claim.id} onUnauthorized={onUnauthorized} />
      {children}
    </DetailsPanel>
  )
}

/** The first landing's parameters as "utm_source fb, utm_campaign winter"; "No campaign" without any. */
function cameFrom(attribution: StaffClaimRow['attribution']): string {
  const kept = Object.entries(attribution ?? {})
  return kept.length === 0 ? 'No campaign' : kept.map(([key, value]) => `${key} ${value}`).join(', ')
}

/**
 * The screenshot, fitted to its column; pressing it (or `z`) shows it at full size in a scrolling box
 * of the panel, so that small print can be read without leaving the claim.
 */
function Screenshot({
  url,
  name,
  isZoomed,
  onZoom,
}: {
  url: string
  name: string
  isZoomed: boolean
  onZoom: (isZoomed: boolean) => void
}) {
  const [isBroken, setIsBroken] = useState(false)
  return (
    <div className="screenshot-box">
      <h3>Bank statement screenshot</h3>
      {isBroken ? (
        <p className="image-missing">Image not available</p>
      ) : (
        <>
          <div className="screenshot-frame">
            <button
              type="button"
              className="screenshot-zoom"
              aria-pressed={isZoomed}
              title={isZoomed ? 'Fit the screenshot (z)' : 'Zoom the screenshot (z)'}
              onClick={() => onZoom(!isZoomed)}
            >
              <img
                className="staff-screenshot"
                src={url}
                alt={`Bank statement screenshot from ${name}`}
                onError={() => setIsBroken(true)}
              />
            </button>
          </div>
          <p>
            {isZoomed ? 'Full size: press it or z to fit.' : 'Press it or z to zoom.'}{' '}
            <a href={url} target="_blank" rel="noopener noreferrer">
              Open in a new tab
            </a>
          </p>
        </>
      )}
    </div>
  )
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}
