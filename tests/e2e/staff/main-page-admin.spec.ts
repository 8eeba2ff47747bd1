import fs from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { baseUrl, connectBrowser, downloadedFile, proofOfWorkHeaders, shown } from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'

describe("the main page's admin mode", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('shows the gate, then All Submissions with its columns, and downloads the app submissions view', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    // one intake of our own, stored through the public API, so the list and the CSV have a known row
    const seeded = await fetch(`${baseUrl()}/api/intake`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
      body: JSON.stringify(
        intakeBody({
          firstName: 'Leilani',
          lastName: 'Admin-View',
          email: 'leilani.adminview@example.com',
          phone: '(808) 555-0301',
          cashAdvanceApps: ['earnin', 'chime'],
        }),
      ),
    })
    expect(seeded.status).toBe(201)
    await page.goto(`${baseUrl()}/?key=anything`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Admin Access')
    await page.getByLabel('Email').fill(inject('adminEmail'))
    await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()

    await shown(page.getByRole('heading', { level: 1, name: 'All Submissions' }))
    const headers = await page.getByRole('columnheader').allInnerTexts()
    expect(headers.map((text) => text.trim())).toEqual([
      'Name',
      'Email',
      'Phone',
      'Apps Used',
      'Signature',
      'Date',
    ])
    const row = page.getByRole('row').filter({ hasText: 'leilani.adminview@example.com' })
    expect(await shown(row)).toContain('Leilani Admin-View')
    expect(await row.innerText()).toContain('(808) 555-0301')
    expect(await row.getByAltText('Signature').count()).toBe(1)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download App Submissions View (CSV)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('app-submissions-view.csv')
    const lines = fs
      .readFileSync(await downloadedFile(download), 'utf8')
      .replace(/^\ufeff/, '')
      .split(/\r?\n/)
    expect(lines[0]).toBe('Name,Email,Phone,Apps Used,Date (America/Los_Angeles),App,Step 2 Status')
    const ours = lines.filter((line) => line.includes('leilani.adminview@example.com'))
    expect(ours).toHaveLength(2)
    expect(ours.every((line) => line.includes('not submitted'))).toBe(true)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await shown(page.getByLabel('Password', { exact: true }))
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
