import type { Browser } from 'playwright-core'
import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailsTo, plainTextOf } from '../../server/agreement-link.ts'
import { baseUrl, launchBrowser, queryDb, shown, staffSessionCookies } from '../browser.ts'

const PARALEGAL = 'paula.paralegal@e2e.test'
const PASSWORD = 'brigit claims all day'

/** The invitation link of the last e-mail to `email` in the e2e server's outbox. */
function invitationLink(email: string): string {
  const text = plainTextOf(mailsTo(inject('dataDir'), email).at(-1)?.eml ?? '')
  const link = /(\S+\/staff\/invite#token=[\w-]+)/.exec(text)?.[1]
  if (!link) throw new Error(`no invitation to ${email} in the outbox`)
  return link
}

describe('an admin invites a paralegal with brigit only', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('who sets a password from the e-mailed link, signs in and sees Brigit alone', async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await admin.addCookies(await staffSessionCookies())
    const adminPage = await admin.newPage()
    await adminPage.goto(`${baseUrl()}/staff/accounts`)
    await shown(adminPage.getByRole('heading', { name: 'Invite a person' }))
    await adminPage.getByLabel('Email', { exact: true }).fill(PARALEGAL)
    await adminPage.getByLabel('Name', { exact: true }).fill('Paula Paralegal')
    await adminPage.getByRole('checkbox', { name: 'Brigit', exact: true }).check()
    await adminPage.getByRole('button', { name: 'Send invitation' }).click()
    expect(await shown(adminPage.getByText(`Invitation sent to ${PARALEGAL}`))).toMatch(/48 hours/)
    const row = adminPage.getByRole('row', { name: new RegExp(PARALEGAL) })
    expect(await shown(row)).toMatch(/Brigit.*Invited/s)
    await admin.close()

    const paralegal = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await paralegal.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(invitationLink(PARALEGAL))
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Set up your staff account')
    expect(await shown(page.getByText('At least 12 characters'))).toMatch(/12 characters/)
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Set password' }).click()
    await shown(page.getByText('Your password is set.'))

    await page.getByRole('link', { name: 'Sign in to the staff pages' }).click()
    await page.getByLabel('Email', { exact: true }).fill(PARALEGAL)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    await shown(page.getByRole('heading', { name: 'Your dashboards' }))
    const dashboards = page.getByRole('region', { name: 'Your dashboards' }).getByRole('link')
    await shown(dashboards)
    expect(await dashboards.allInnerTexts()).toEqual(['Brigit'])
    expect(await page.getByRole('heading', { name: 'Administration' }).count()).toBe(0)

    await page.goto(`${baseUrl()}/earnin-admin`)
    expect(await shown(page.getByRole('alert'))).toMatch(/does not have access to this page/)
    await page.goto(`${baseUrl()}/brigit-admin`)
    await shown(page.getByRole('heading', { name: /Brigit Admin Dashboard/ }))
    expect(pageErrors).toEqual([])

    const [entry] = queryDb<{ actor: string }>(
      "SELECT actor FROM audit_log WHERE action = 'account_invited' AND detail LIKE ?",
      `${PARALEGAL}%`,
    )
    expect(entry?.actor).toBe(inject('adminEmail'))
    await paralegal.close()
  })
})
