import type { SignedRecordView } from '../../../src/api/staff.ts'
import { fetchJson } from '../../http.ts'
import { formatDateTime } from '../shared/format.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'

/**
 * What the claimant signed and how, in the claim's details: the signature, the time, the address and
 * browser it came from, the confirmation from the e-mail's link, and the agreement as signed (opened
 * apart, as the stored document, nothing in it able to run).
 */
export function SignedRecordPanel({
  claimId,
  onUnauthorized,
}: {
  claimId: number
  onUnauthorized: () => void
}) {
  const record = useStaffResource({
    key: String(claimId),
    load: (signal) =>
      fetchJson<SignedRecordView>(
        `/api/staff/claims/${claimId}/signed-record`,
        signal ? { signal } : undefined,
      ),
    onUnauthorized,
  })
  return (
    <div className="signed-record">
      <h3>Signed agreement</h3>
      {record.status === 'failed' ? (
        <p className="alert" role="alert">
          The signed record could not be loaded: {record.message}.
        </p>
      ) : record.data === undefined ? (
        <p>Loading the signed record…</p>
      ) : (
        <>
          <img
            className="signed-signature"
            src={record.data.signature}
            alt={
              record.data.adoptedFrom
                ? `The signature adopted from ${record.data.adoptedFrom}`
                : record.data.typedName
                  ? `Typed signature: ${record.data.typedName}`
                  : 'The drawn signature'
            }
          />
          <dl className="details">
            <dt>Signed</dt>
            <dd>
              {formatDateTime(record.data.signedAt)} (
              {record.data.adoptedFrom
                ? `adopted from ${record.data.adoptedFrom}`
                : record.data.signatureMethod}
              , in {record.data.locale === 'es' ? 'Spanish' : 'English'})
            </dd>
            <dt>IP address</dt>
            <dd>{record.data.ipAddress}</dd>
            <dt>Browser</dt>
            <dd className="user-agent">{record.data.userAgent}</dd>
            <dt>Confirmed</dt>
            <dd>
              {record.data.confirmation
                ? `${formatDateTime(record.data.confirmation.at)} from ${record.data.confirmation.ipAddress}`
                : 'Not yet'}
            </dd>
            <dt>Agreement SHA-256</dt>
            <dd className="hash">{record.data.agreementSha256}</dd>
          </dl>
          <p>
            <a href={`/api/staff/claims/${claimId}/agreement.html`} target="_blank" rel="noopener noreferrer">
              Open the agreement as signed
            </a>
          </p>
        </>
      )}
    </div>
  )
}
