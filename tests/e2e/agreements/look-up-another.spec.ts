import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { fileEarninClaim, requestAgreementLink } from './agreement-link.ts'

const PERSON = {
  firstName: 'Efua',
  lastName: 'Boateng',
  email: 'efua.boateng@example.com',
  phoneNumber: '(702) 555-0141',
}

/** The download key the opened page keeps in this tab and the claim it downloads, or undefined once forgotten. */
function keptDownload(page: Page): Promise<{ key: string; claimId: number } | undefined> {
  return page.evaluate(() => {
    const kept = sessionStorage.getItem('opened-agreements')
    if (!kept) return undefined
    const opened = JSON.parse(kept) as { downloadKey: string; agreements: { claimId: number }[] }
    return { key: opened.downloadKey, claimId: opened.agreements[0]!.claimId }
  })
}

/** The status a download with the key gets now, as the next person holding the key would. */
async function downloadStatus({ key, claimId }: { key: string; claimId: number }): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/agreements/download`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key, claimId, format: 'html' }),
  })
  return response.status
}

describe('on a shared phone, a claimant leaves their opened agreements for the lookup form', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('forgets the opened page in the tab and on the server: a reload and Back show the form', async () => {
    await fileEarninClaim(PERSON)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: PERSON.email, phone: '7025550141' })
    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    const download = (await keptDownload(page))!
    expect(await downloadStatus(download)).toBe(200)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'agreement-link-opened-look-up-another-390')

    await tabTo(page, '.opened-actions button')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Look up another agreement')
    await page.keyboard.press('Enter')

    await shown(page.locator('#lookup-email'))
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('View My Agreement')
    expect(await page.getByRole('heading', { name: 'Agreement Found!' }).count()).toBe(0)
    expect(await page.locator('body').innerText()).not.toContain(PERSON.email)
    expect(await keptDownload(page)).toBeUndefined()
    await keepScreenshot(page, 'agreement-link-looked-up-another-390')
    // the key left behind opens nothing any more: the page ends it on the server, without waiting
    await expect.poll(() => downloadStatus(download)).toBe(410)
    // from the heading focus was put on, Tab goes on into the form
    await tabTo(page, '#lookup-email')

    await page.reload()
    await shown(page.getByRole('button', { name: 'Find My Agreement' }))
    expect(await page.getByRole('heading', { name: 'Agreement Found!' }).count()).toBe(0)

    await page.getByRole('link', { name: '← Back to Home' }).click()
    await page.waitForURL(`${baseUrl()}/`)
    await page.goBack()
    await shown(page.getByRole('button', { name: 'Find My Agreement' }))
    expect(await page.getByRole('heading', { name: 'Agreement Found!' }).count()).toBe(0)
    expect(pageErrors).toEqual([])
    await context.close()
  })

  it('says it in Spanish on a Spanish page', async () => {
    const person = {
      ...PERSON,
      firstName: 'Ama',
      email: 'ama.boateng@example.com',
      phoneNumber: '(702) 555-0142',
    }
    await fileEarninClaim(person)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/view-agreement?lang=es`)
    const link = await requestAgreementLink(page, { email: person.email, phone: '7025550142' })
    await page.goto(link)

    await page.getByRole('button', { name: 'Buscar otro acuerdo' }).click()

    await shown(page.getByRole('button', { name: 'Buscar mi acuerdo' }))
    await context.close()
  })
})
