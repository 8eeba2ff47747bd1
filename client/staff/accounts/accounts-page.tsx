import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import type { StaffAppChoice } from '../../../src/api/staff-accounts.ts'
import { AdminPage, type AdminActions } from '../sign-in/admin-page.tsx'
import { TableRegion } from '../shared/table-region.tsx'
import { ResourceView } from '../shared/resource-view.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { AccessFields, type Access } from './access-fields.tsx'
import {
  changeAccess,
  fetchAccounts,
  resendInvitation,
  resetTwoFactor,
  setAccountDisabled,
  type StaffAccountSummary,
} from './accounts-api.ts'
import { InviteForm } from './invite-form.tsx'
import './accounts.css'

/** /staff/accounts (admins): every account, the invitation form, and each account's changes. */
export function AccountsPage() {
  return (
    <AdminPage
      title="Staff accounts"
      lead="Who may sign in, and what each person may see"
      className="accounts-page"
    >
      {(session, actions) => <Accounts session={session} actions={actions} />}
    </AdminPage>
  )
}

function Accounts({ session, actions }: { session: StaffSession; actions: AdminActions }) {
  const { act, failed, reload } = actions
  const [editing, setEditing] = useState<StaffAccountSummary>()
  const list = useStaffResource({
    key: String(actions.version),
    load: fetchAccounts,
    onUnauthorized: session.expired,
  })
  const appName = (slug: string) => list.data?.apps.find((app) => app.slug === slug)?.name ?? slug

  return (
    <>
      <ResourceView
        resource={list}
        loading="Loading accounts..."
        failed={(message) => `The accounts could not be loaded (${message}). Reload the page to try again.`}
      >
        {(data) => (
          <TableRegion
            label="Staff accounts"
            headings={['Name', 'Email', 'Role', 'Apps', 'Two-factor', 'Status', 'Actions']}
            cards
          >
            {data.accounts.map((account) => (
              <tr key={account.id}>
                <th scope="row">{account.name}</th>
                <td data-label="Email">{account.email}</td>
                <td data-label="Role">{account.role === 'admin' ? 'Admin' : 'Staff'}</td>
                <td data-label="Apps">
                  {account.role === 'admin'
                    ? 'All apps'
                    : account.apps
                        .map(({ app, canExport, canDecide, canPay }) => {
                          const rights = [
                            canExport && 'export',
                            canDecide && 'decide',
                            canPay && 'payments',
                          ].filter(Boolean)
                          return `${appName(app)}${rights.length > 0 ? ` (${rights.join(', ')})` : ''}`
                        })
                        .join(', ') || 'None'}
                </td>
                <td data-label="Two-factor">{account.twoFactor ? 'On' : 'Off'}</td>
                <td data-label="Status">
                  <span className="state-tag">
                    {account.disabled ? 'Disabled' : account.invitePending ? 'Invited' : 'Active'}
                  </span>
                </td>
                <td>
                  <div className="row-actions">
                    <button type="button" onClick={() => setEditing(account)}>
                      Edit access<span className="visually-hidden"> of {account.email}</span>
                    </button>
                    <button
                      type="button"
                      onClick={() =>
                        void act(
                          () => setAccountDisabled(account.id, !account.disabled),
                          `${account.disabled ? 'Enable' : 'Disable'}: ${account.email} is now ${
                            account.disabled ? 'enabled' : 'disabled'
                          }`,
                        )
                      }
                    >
                      {account.disabled ? 'Enable' : 'Disable'}
                      <span className="visually-hidden"> {account.email}</span>
                    </button>
                    {account.twoFactor ? (
                      <button
                        type="button"
                        onClick={() =>
                          window.confirm(`Turn off two-factor sign-in of ${account.email}?`) &&
                          void act(
                            () => resetTwoFactor(account.id),
                            `Reset two-factor: ${account.email} signs in with a password alone until set up again`,
                          )
                        }
                      >
                        Reset 2FA<span className="visually-hidden"> of {account.email}</span>
                      </button>
                    ) : null}
                    {account.invitePending ? (
                      <button
                        type="button"
                        onClick={() =>
                          void act(async () => {
                            const answer = await resendInvitation(account.id)
                            if (!answer.emailed) throw new Error('the e-mail could not be sent')
                          }, `Re-send invitation: a new link went to ${account.email}`)
                        }
                      >
                        Re-send invitation<span className="visually-hidden"> to {account.email}</span>
                      </button>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </TableRegion>
        )}
      </ResourceView>
      {editing && list.data ? (
        <AccessEditor
          key={editing.id}
          account={editing}
          apps={list.data.apps}
          onCancel={() => setEditing(undefined)}
          onSave={(access) =>
            act(async () => {
              await changeAccess(editing.id, access)
              setEditing(undefined)
            }, `Change access: ${editing.email} now has the new role and apps`)
          }
        />
      ) : null}
      <section className="staff-panel" aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a person</h2>
        {list.data ? (
          <InviteForm
            apps={list.data.apps}
            onError={failed}
            onInvited={(account, emailed) => {
              actions.tell(
                emailed
                  ? `Invitation sent to ${account.email}. The link works once, within 48 hours.`
                  : `The account of ${account.email} was created, but the e-mail could not be sent: use "Re-send invitation".`,
              )
              reload()
            }}
          />
        ) : null}
      </section>
    </>
  )
}

function AccessEditor({
  account,
  apps,
  onSave,
  onCancel,
}: {
  account: StaffAccountSummary
  apps: StaffAppChoice[]
  onSave: (access: Access) => Promise<void>
  onCancel: () => void
}) {
  const headingId = useId()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [access, setAccess] = useState<Access>({ role: account.role, apps: account.apps })
  useEffect(() => headingRef.current?.focus(), [])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void onSave(access)
  }
  return (
    <section className="staff-panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        Access of {account.name} ({account.email})
      </h2>
      <form onSubmit={submit}>
        <p className="field-help">Saving signs this person out everywhere, so the change applies at once.</p>
        <AccessFields value={access} onChange={setAccess} apps={apps} />
        <div className="action-row">
          <button type="submit" className="primary">
            Save access
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  )
}
