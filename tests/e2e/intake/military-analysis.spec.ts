import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  baseUrl,
  connectBrowser,
  proofOfWorkHeaders,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { intakeBody } from './fill-intake.ts'

/** Stores intakes through the public API, from the page's own origin as the form would. */
async function seedIntakes(page: Page, bodies: Record<string, unknown>[]): Promise<void> {
  const proofs: Record<string, string>[] = []
  for (const _body of bodies) proofs.push(await proofOfWorkHeaders())
  const statuses = await page.evaluate(
    ({ all, proofs }) =>
      Promise.all(
        all.map(async (body, i) => {
          const response = await fetch('/api/intake', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...proofs[i] },
            body: JSON.stringify(body),
          })
          return response.status
        }),
      ),
    { all: bodies, proofs },
  )
  expect(statuses).toEqual(bodies.map(() => 201))
}

function figuresInDb() {
  const [row] = queryDb<{ total: number; active: number | null }>(
    'SELECT COUNT(*) AS total, SUM(is_active_military) AS active FROM form_submissions',
  )
  const total = row?.total ?? 0
  const active = row?.active ?? 0
  return { total, active, percent: total === 0 ? '0.0%' : `${((active / total) * 100).toFixed(1)}%` }
}

describe('/military-analysis', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('shows only the gate and answers 401 without a staff session', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await page.goto(`${baseUrl()}/military-analysis`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Military Analysis')
    await shown(page.getByLabel('Password', { exact: true }))
    expect(await page.getByText('Total Submissions').count()).toBe(0)
    const status = await page.evaluate(async () => (await fetch('/api/staff/military')).status)
    expect(status).toBe(401)
    await page.close()
  })

  it('shows the active-military count, the total and the percentage after login, as stored', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/military-analysis`)
    await seedIntakes(page, [
      intakeBody({ email: 'sgt.palakiko@example.com', phone: '(808) 555-0201', isActiveMilitary: true }),
      intakeBody({ email: 'lt.kealoha@example.com', phone: '(808) 555-0202', isActiveMilitary: true }),
      intakeBody({ email: 'civilian.akana@example.com', phone: '(808) 555-0203', isActiveMilitary: false }),
    ])
    const expected = figuresInDb()
    expect(expected.active).toBeGreaterThanOrEqual(2)

    await page.getByLabel('Email').fill(inject('adminEmail'))
    await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    const figures = page.getByRole('list', { name: 'Military figures' })
    await shown(figures)
    const cards = (await figures.getByRole('listitem').allInnerTexts()).map((text) =>
      text.replace(/\s+/g, ' '),
    )
    expect(cards).toEqual([
      `Active Military ${expected.active}`,
      `Total Submissions ${expected.total}`,
      `Percentage ${expected.percent}`,
    ])
    await shown(page.getByText(/Military Lending Act/).first())
    // beside the figures, the claimants themselves
    const listed = await shown(page.getByRole('region', { name: 'Active-military claimants' }))
    expect(listed).toContain('sgt.palakiko@example.com')
    expect(listed).toContain('lt.kealoha@example.com')
    expect(listed).not.toContain('civilian.akana@example.com')
    expect(pageErrors).toEqual([])
    await context.close()
  })

  it('says it is loading, then offers a retry when the figures cannot be loaded', async () => {
    // signed in already: this is about loading the figures, not the login (logins are limited per address)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()

    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let calls = 0
    await page.route('**/api/staff/military', async (route) => {
      calls++
      if (calls === 1) {
        await held
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'the database is unreachable' } }),
        })
      } else {
        await route.continue()
      }
    })
    await page.goto(`${baseUrl()}/military-analysis`)
    await shown(page.getByText('Loading military data...'))
    release()
    expect(await shown(page.getByRole('alert'))).toContain('the database is unreachable')
    await page.getByRole('button', { name: 'Try again' }).click()
    await shown(page.getByRole('list', { name: 'Military figures' }))
    expect(await page.getByRole('alert').count()).toBe(0)
    await context.close()
  })
})
