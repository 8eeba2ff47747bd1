import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'

// TEST-NET-3: a public address (the server takes it with WEBHOOKS_ALLOW_PRIVATE off) that no receiver has
const URL = 'https://203.0.113.10/hooks/claims'

describe('an admin adds a webhook endpoint', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('with the keyboard alone, sees its secret once, finds it listed, and the page passes axe', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/staff`)
    await page.getByRole('link', { name: 'Webhooks' }).click()
    await shown(page.getByRole('heading', { name: 'Add an endpoint' }))
    await shown(page.getByRole('region', { name: 'Webhook endpoints' }))
    expect(await axeViolations(page)).toEqual([])

    await tabTo(page, 'input[type="url"]')
    await typeText(page, URL)
    await tabTo(page, 'input[name="event-claim.confirmed"]')
    await page.keyboard.press('Space')
    await tabTo(page, 'button[type="submit"]')
    await page.keyboard.press('Enter')

    const heading = page.getByRole('heading', { name: 'Endpoint added: copy its secret now' })
    await shown(heading)
    expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true)
    const secret = await page.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const row = page.getByRole('row', { name: new RegExp(URL.replaceAll('.', '\\.')) })
    expect(await shown(row)).toMatch(/claim\.confirmed\s+Not included\s+Active/)
    expect(
      queryDb<{ events: string; include_details: number }>(
        'SELECT events, include_details FROM webhook_endpoints WHERE url = ?',
        URL,
      ),
    ).toEqual([{ events: '["claim.confirmed"]', include_details: 0 }])
    await keepScreenshot(page, 'webhooks-secret-1280')
    expect(await axeViolations(page)).toEqual([])

    await row.getByRole('button', { name: `Deliveries to ${URL}` }).click()
    await shown(page.getByRole('heading', { name: `Deliveries to ${URL}` }))
    await shown(page.getByText('No event has been queued for this endpoint yet.'))

    // once only: the page opened again has the endpoint, not its secret
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await shown(page.getByRole('row', { name: new RegExp(URL.replaceAll('.', '\\.')) }))
    expect(await page.content()).not.toContain(secret)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await keepScreenshot(page, 'webhooks-390')
    expect(await axeViolations(page)).toEqual([])

    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: `Delete ${URL}` }).click()
    await shown(page.getByText(`Delete: ${URL} gets no more events`))
    expect(queryDb('SELECT id FROM webhook_endpoints WHERE url = ?', URL)).toEqual([])
    expect(
      queryDb<{ action: string }>(
        "SELECT action FROM audit_log WHERE action LIKE 'webhook_%' AND detail LIKE ? ORDER BY id",
        `% ${URL} %`,
      ).map(({ action }) => action),
    ).toEqual(['webhook_created', 'webhook_deleted'])
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
