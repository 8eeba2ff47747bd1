import { useState } from 'react'
import type { CreatedWebhook, WebhookEndpoint } from '../../../src/api/webhooks.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { AdminPage, type AdminActions } from '../sign-in/admin-page.tsx'
import { ResourceView } from '../shared/resource-view.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { DeliveriesSection } from './deliveries-section.tsx'
import { EndpointForm } from './endpoint-form.tsx'
import { SecretPanel } from './secret-panel.tsx'
import { changeEndpoint, deleteEndpoint, fetchEndpoints } from './webhooks-api.ts'
import '../accounts/accounts.css'
import './webhooks.css'

/** /staff/webhooks (admins): the endpoints, each one's delivery log, and the form that adds one. */
export function WebhooksPage() {
  return (
    <AdminPage
      title="Webhooks"
      lead="Intakes and claims sent to your other systems as they happen"
      className="webhooks-page"
    >
      {(session, actions) => <Webhooks session={session} actions={actions} />}
    </AdminPage>
  )
}

function Webhooks({ session, actions }: { session: StaffSession; actions: AdminActions }) {
  const { act, failed, reload } = actions
  const [created, setCreated] = useState<CreatedWebhook>()
  const [open, setOpen] = useState<number>()
  const list = useStaffResource({
    key: String(actions.version),
    load: fetchEndpoints,
    onUnauthorized: session.expired,
  })
  const remove = (endpoint: WebhookEndpoint) => {
    if (!window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`)) return
    if (open === endpoint.id) setOpen(undefined)
    void act(() => deleteEndpoint(endpoint.id), `Delete: ${endpoint.url} gets no more events`)
  }
  const opened = list.data?.endpoints.find((endpoint) => endpoint.id === open)

  return (
    <>
      {created ? <SecretPanel created={created} onDone={() => setCreated(undefined)} /> : null}
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <ResourceView
          resource={list}
          loading="Loading endpoints..."
          failed={(message) =>
            `The endpoints could not be loaded (${message}). Reload the page to try again.`
          }
        >
          {(data) => (
            <TableRegion
              label="Webhook endpoints"
              headings={['URL', 'Events', 'Claimant details', 'Status', 'Actions']}
              cards
            >
              {data.endpoints.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty-row">
                    No endpoint yet: add one below.
                  </td>
                </tr>
              ) : (
                data.endpoints.map((endpoint) => (
                  <tr key={endpoint.id} className={endpoint.id === open ? 'is-selected' : undefined}>
                    <th scope="row" className="webhook-url">
                      {endpoint.url}
                    </th>
                    <td className="webhook-event-list" data-label="Events">
                      {endpoint.events.join(', ')}
                    </td>
                    <td data-label="Claimant details">
                      {endpoint.includeDetails ? 'Included' : 'Not included'}
                    </td>
                    <td data-label="Status">
                      <span className="state-tag">{endpoint.isActive ? 'Active' : 'Paused'}</span>
                    </td>
                    <td>
                      <div className="row-actions">
                        <button type="button" onClick={() => setOpen(endpoint.id)}>
                          Deliveries<span className="visually-hidden"> to {endpoint.url}</span>
                        </button>
                        <button
                          type="button"
                          onClick={() =>
                            void act(
                              () => changeEndpoint(endpoint.id, { isActive: !endpoint.isActive }),
                              endpoint.isActive
                                ? `Pause: ${endpoint.url} gets no events until resumed`
                                : `Resume: ${endpoint.url} gets its events again`,
                            )
                          }
                        >
                          {endpoint.isActive ? 'Pause' : 'Resume'}
                          <span className="visually-hidden"> {endpoint.url}</span>
                        </button>
                        <button type="button" onClick={() => remove(endpoint)}>
                          Delete<span className="visually-hidden"> {endpoint.url}</span>
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
      {opened ? (
        <DeliveriesSection
          key={opened.id}
          endpoint={opened}
          onClose={() => setOpen(undefined)}
          onUnauthorized={session.expired}
        />
      ) : null}
      <section className="staff-panel" aria-labelledby="add-heading">
        <h2 id="add-heading">Add an endpoint</h2>
        <p className="field-help">
          Each event is posted as JSON, signed with the endpoint&apos;s secret (docs/webhooks.md in the
          project says how to check the signature).
        </p>
        <EndpointForm
          onError={failed}
          onCreated={(answer) => {
            actions.tell(undefined)
            setCreated(answer)
            reload()
          }}
        />
      </section>
    </>
  )
}
