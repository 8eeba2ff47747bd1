import fs from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  baseUrl,
  connectBrowser,
  downloadedFile,
  keepScreenshot,
  proofOfWorkHeaders,
  shown,
} from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { fileClaim } from '../seed.ts'

describe("the main page's admin mode", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('shows the gate, then All Submissions with its columns, searches, opens a submission with its cases, and downloads the app submissions view', async () => {
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
    const intakeId = ((await seeded.json()) as { id: number }).id
    // Leilani's Step 2 for earnin (same phone); chime she has not started
    const claimId = await fileClaim('earnin', {
      firstName: 'Leilani',
      lastName: 'Admin-View',
      email: 'leilani.adminview@example.com',
      phoneDigits: '8085550301',
    })
    await page.goto(`${baseUrl()}/?key=anything`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Admin Access')
    await page.getByLabel('Email').fill(inject('adminEmail'))
    await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()

    await shown(page.getByRole('heading', { level: 1, name: 'All Submissions' }))
    const headers = await page.getByRole('columnheader').allInnerTexts()
    expect(headers.map((text) => text.trim())).toEqual([
      'ID',
      'Name',
      'Email',
      'Phone',
      'Apps Used',
      'Signature',
      'Date',
      'Confirmation',
      'Actions',
    ])

    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('adminview@example')
    expect(await shown(page.getByText(/^Search results: 1 of \d+ submissions$/))).toMatch(/^Search results/)
    const row = page.getByRole('row').filter({ hasText: 'leilani.adminview@example.com' })
    expect(await shown(row)).toContain('Leilani Admin-View')
    expect(await row.innerText()).toContain('(808) 555-0301')
    expect(await row.getByRole('cell').first().innerText()).toBe(String(intakeId))
    expect(await row.getByAltText('Signature').count()).toBe(1)
    // the claimant has not answered the intake's e-mail yet
    expect(await row.getByRole('cell', { name: 'Not confirmed', exact: true }).count()).toBe(1)
    await keepScreenshot(page, 'main-admin-search-1280')

    // with the keyboard: the row's View Details opens the submission at its own address
    await row.getByRole('button', { name: 'View Details' }).focus()
    await page.keyboard.press('Enter')
    const details = page.getByRole('region', { name: 'Selected Submission Details' })
    await shown(details.getByRole('heading', { name: 'Eligibility answers' }))
    await page.waitForURL(`${baseUrl()}/staff/intake/${intakeId}`)
    expect(await details.getByText('Are you 18 years of age or older?').count()).toBe(1)
    const cases = details.getByRole('region', { name: 'Cases table' })
    const earnin = cases.getByRole('row').filter({ hasText: 'Earnin' })
    expect((await earnin.innerText()).split('\t').map((cell) => cell.trim())).toEqual([
      'Earnin',
      expect.stringMatching(/^\d+$/),
      'Step 2 done',
      `Claim ${claimId}`,
      'Received',
    ])
    expect(await earnin.getByRole('link', { name: `Claim ${claimId}` }).getAttribute('href')).toBe(
      `/earnin-admin/claims/${claimId}`,
    )
    expect(await cases.getByRole('row').filter({ hasText: 'Chime' }).innerText()).toContain(
      'Step 2 not started',
    )
    expect(await details.getByText('Not confirmed by the claimant yet.').count()).toBe(1)
    // beside the details the list's View Details stays whole: the phone and signature give way
    const list = await page.getByRole('region', { name: 'All Submissions table' }).boundingBox()
    const button = await row.getByRole('button', { name: 'View Details' }).boundingBox()
    expect(button!.x + button!.width).toBeLessThanOrEqual(list!.x + list!.width)
    await keepScreenshot(page, 'main-admin-details-1280')
    await details.getByRole('button', { name: 'Close' }).click()
    await page.waitForURL(`${baseUrl()}/?key=anything`)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download App Submissions View (CSV)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('app-submissions-view.csv')
    const lines = fs
      .readFileSync(await downloadedFile(download), 'utf8')
      .replace(/^\ufeff/, '')
      .split(/\r?\n/)
    expect(lines[0]).toBe('Name,Email,Phone,Apps Used,Date,Time Zone,App,Step 2 Status')
    const ours = lines.filter((line) => line.includes('leilani.adminview@example.com'))
    expect(ours).toHaveLength(2)
    expect(ours.find((line) => line.includes(',Earnin,'))).toMatch(/,submitted$/)
    expect(ours.find((line) => line.includes(',Chime,'))).toMatch(/,not submitted$/)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await shown(page.getByLabel('Password', { exact: true }))
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
