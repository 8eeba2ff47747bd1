import { useEffect, useId, useRef, useState } from 'react'
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/api/webhooks.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { formatListTime } from '../shared/format.ts'
import { ResourceView } from '../shared/resource-view.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { fetchDeliveries, sendAgain } from './webhooks-api.ts'

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
}

/** The receiver's last answer: its HTTP status, or why none came. */
function lastAnswer(delivery: WebhookDelivery): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`
  return delivery.lastError ?? (delivery.attempts === 0 ? 'Not sent yet' : '—')
}

/** One endpoint's most recent deliveries, with "Send again" on each. */
export function DeliveriesSection({
  endpoint,
  onClose,
  onUnauthorized,
}: {
  endpoint: WebhookEndpoint
  onClose: () => void
  onUnauthorized: () => void
}) {
  const headingId = useId()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [version, setVersion] = useState(0)
  const [note, setNote] = useState<string>()
  const [problem, setProblem] = useState<string>()
  const log = useStaffResource({
    key: `${endpoint.id}:${version}`,
    load: (signal) => fetchDeliveries(endpoint.id, signal),
    onUnauthorized,
  })
  useEffect(() => headingRef.current?.focus(), [endpoint.id])

  const again = async (delivery: WebhookDelivery) => {
    setNote(undefined)
    setProblem(undefined)
    try {
      await sendAgain(endpoint.id, delivery.id)
      setNote(
        `The ${delivery.type} event of ${formatListTime(delivery.createdAt)} is queued to be sent again.`,
      )
      setVersion((count) => count + 1)
    } catch (error) {
      setProblem(`Send again failed: ${(error as Error).message}.`)
    }
  }

  return (
    <section className="staff-panel webhook-deliveries" aria-labelledby={headingId}>
      <div className="panel-heading">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          Deliveries to <span className="webhook-url">{endpoint.url}</span>
        </h2>
        <div className="panel-actions">
          <button type="button" className="secondary" onClick={() => setVersion((count) => count + 1)}>
            Refresh
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <p className="field-help">
        The 50 most recent. A delivery is retried after 1 minute, 5 minutes, 30 minutes, 2 hours, 6 hours and
        then every 12 hours, for a day; after that it has failed, and &ldquo;Send again&rdquo; queues it once
        more.
      </p>
      <div aria-live="polite">{note ? <p className="done-note">{note}</p> : null}</div>
      {problem ? (
        <p className="alert" role="alert">
          {problem}
        </p>
      ) : null}
      <ResourceView
        resource={log}
        loading="Loading deliveries..."
        failed={(message) => `The deliveries could not be loaded (${message}). Use Refresh to try again.`}
      >
        {(data) => (
          <TableRegion
            label="Deliveries"
            headings={['Event', 'Happened', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Actions']}
            cards
          >
            {data.deliveries.length === 0 ? (
              <tr>
                <td colSpan={7} className="empty-row">
                  No event has been queued for this endpoint yet.
                </td>
              </tr>
            ) : (
              data.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">
                    <code>{delivery.type}</code>
                  </th>
                  <td data-label="Happened">{formatListTime(delivery.createdAt)}</td>
                  <td data-label="Status">
                    <span className="state-tag">{STATUS_LABELS[delivery.status]}</span>
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td className="webhook-answer" data-label="Last answer">
                    {lastAnswer(delivery)}
                  </td>
                  <td data-label="Next attempt">
                    {delivery.nextAttemptAt ? formatListTime(delivery.nextAttemptAt) : '—'}
                  </td>
                  <td>
                    <div className="row-actions">
                      <button type="button" onClick={() => void again(delivery)}>
                        Send again
                        <span className="visually-hidden">
                          {' '}
                          {delivery.type} of {formatListTime(delivery.createdAt)}
                        </span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))
            )}
          </TableRegion>
        )}
      </ResourceView>
    </section>
  )
}
