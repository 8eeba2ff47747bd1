import { useId } from 'react'
import type { StaffAppAccess, StaffRole } from '../../../src/api/staff.ts'
import type { StaffAppChoice } from '../../../src/api/staff-accounts.ts'

export interface Access {
  role: StaffRole
  apps: StaffAppAccess[]
}

/** Role, and for a staff account a checkbox per app with its own export, decide and payments checkboxes. */
export function AccessFields({
  value,
  onChange,
  apps,
}: {
  value: Access
  onChange: (access: Access) => void
  apps: StaffAppChoice[]
}) {
  const roleId = useId()
  const appsHelpId = useId()
  const granted = (slug: string) => value.apps.find((access) => access.app === slug)
  const setApp = (slug: string, access: StaffAppAccess | undefined) =>
    onChange({
      ...value,
      apps: [...value.apps.filter((each) => each.app !== slug), ...(access ? [access] : [])],
    })
  return (
    <>
      <div className="form-group">
        <label htmlFor={roleId}>Role</label>
        <select
          id={roleId}
          className="form-control"
          value={value.role}
          onChange={(event) => onChange({ ...value, role: event.target.value as StaffRole })}
        >
          <option value="staff">Staff: only the apps chosen below</option>
          <option value="admin">Admin: every app, accounts and the audit log</option>
        </select>
      </div>
      {value.role === 'staff' ? (
        <fieldset className="form-group" aria-describedby={appsHelpId}>
          <legend className="control-label">Apps</legend>
          <p id={appsHelpId} className="field-help">
            The dashboards this person may see, and whether they may export each one&apos;s claims, decide
            them (approve or reject) and approve its payout batches.
          </p>
          <ul className="access-apps">
            {apps.map((app) => {
              const access = granted(app.slug)
              return (
                <li key={app.slug}>
                  <label className="check-option">
                    <input
                      type="checkbox"
                      name={`app-${app.slug}`}
                      checked={access !== undefined}
                      onChange={(event) =>
                        setApp(
                          app.slug,
                          event.target.checked ? { app: app.slug, canExport: false } : undefined,
                        )
                      }
                    />
                    {app.name}
                  </label>
                  <RightBox app={app} access={access} right="canExport" label="Export" onChange={setApp} />
                  <RightBox app={app} access={access} right="canDecide" label="Decide" onChange={setApp} />
                  <RightBox
                    app={app}
                    access={access}
                    right="canPay"
                    name="payments"
                    label="Payments: approve payout batches"
                    onChange={setApp}
                  />
                </li>
              )
            })}
          </ul>
        </fieldset>
      ) : null}
    </>
  )
}

/**
 * One right of a granted app (export, decide, payments): a box beside the app's, off until the app is
 * granted. `name` is the input's name stem when the label is longer than a word.
 */
function RightBox({
  app,
  access,
  right,
  label,
  name = label.toLowerCase(),
  onChange,
}: {
  app: { slug: string; name: string }
  access: StaffAppAccess | undefined
  right: 'canExport' | 'canDecide' | 'canPay'
  label: string
  name?: string
  onChange: (slug: string, access: StaffAppAccess) => void
}) {
  return (
    <label className="check-option export">
      <input
        type="checkbox"
        name={`${name}-${app.slug}`}
        disabled={access === undefined}
        checked={access?.[right] ?? false}
        onChange={(event) => onChange(app.slug, { ...access!, [right]: event.target.checked })}
      />
      <span>
        {label}
        <span className="visually-hidden"> {app.name}</span>
      </span>
    </label>
  )
}
