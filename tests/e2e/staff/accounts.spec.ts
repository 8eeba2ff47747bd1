import type { Browser } from 'playwright-core'
import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invitationTo } from '../../server/support/agreement-link.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'

const PARALEGAL = 'paula.paralegal@e2e.test'
const PASSWORD = 'brigit claims all day'

describe('an admin invites a paralegal with brigit only', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await connectBrowser()
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
    await adminPage.getByRole('checkbox', { name: 'Decide Brigit' }).check()
    await keepScreenshot(adminPage, 'accounts-invite-1280')
    await adminPage.getByRole('button', { name: 'Send invitation' }).click()
    expect(await shown(adminPage.getByText(`Invitation sent to ${PARALEGAL}`))).toMatch(/48 hours/)
    const row = adminPage.getByRole('row', { name: new RegExp(PARALEGAL) })
    expect(await shown(row)).toMatch(/Brigit \(decide\).*Invited/s)
    expect(
      queryDb<{ app: string; can_export: number; can_decide: number }>(
        `SELECT app, can_export, can_decide FROM staff_account_apps
         WHERE account_id = (SELECT id FROM staff_accounts WHERE email = ?)`,
        PARALEGAL,
      ),
    ).toEqual([{ app: 'brigit', can_export: 0, can_decide: 1 }])
    await admin.close()

    const paralegal = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await paralegal.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(invitationTo(inject('dataDir'), PARALEGAL).url)
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

  it('lets an admin invite with the keyboard alone, says a refusal in an alert, and passes axe', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/staff/accounts`)
    await shown(page.getByRole('table'))
    expect(await axeViolations(page)).toEqual([])

    const invite = async (email: string) => {
      await tabTo(page, 'form input[type="email"]')
      await typeText(page, email)
      await page.keyboard.press('Tab')
      await typeText(page, 'Kim Keyboard')
      await tabTo(page, 'input[name="app-earnin"]')
      await page.keyboard.press('Space')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Space')
      await tabTo(page, 'button[type="submit"]')
      await page.keyboard.press('Enter')
    }
    await invite('kim.keyboard@e2e.test')
    await shown(page.getByText('Invitation sent to kim.keyboard@e2e.test'))
    expect(await shown(page.getByRole('row', { name: /kim\.keyboard/ }))).toMatch(/Earnin \(export\)/)
    await keepScreenshot(page, 'accounts-1280')

    // on a phone each account is a card: its actions in view, nothing to scroll sideways
    await page.setViewportSize({ width: 390, height: 844 })
    const list = page.getByRole('region', { name: 'Staff accounts' })
    expect(await list.evaluate((region) => region.scrollWidth - region.clientWidth)).toBe(0)
    const edit = await page
      .getByRole('button', { name: 'Edit access of kim.keyboard@e2e.test' })
      .boundingBox()
    expect(edit!.x + edit!.width).toBeLessThanOrEqual(390)
    await keepScreenshot(page, 'accounts-390')
    expect(await axeViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 900 })

    await page.goto(`${baseUrl()}/staff/accounts`)
    await shown(page.getByRole('table'))
    await invite('KIM.keyboard@e2e.test')
    expect(await shown(page.getByRole('alert'))).toMatch(/already exists/)

    await page.getByRole('button', { name: 'Edit access of kim.keyboard@e2e.test' }).click()
    await shown(page.getByRole('heading', { name: /Access of Kim Keyboard/ }))
    expect(await axeViolations(page)).toEqual([])
    for (const path of ['/staff', '/staff/account', `/staff/invite#token=${'x'.repeat(43)}`]) {
      await page.goto(`${baseUrl()}${path}`)
      await shown(page.getByRole('heading', { level: 1 }))
      await page.waitForLoadState('networkidle')
      expect([path, await axeViolations(page)]).toEqual([path, []])
    }
    await context.close()
  })
})
