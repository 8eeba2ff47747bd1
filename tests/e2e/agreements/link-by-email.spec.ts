import fs from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { linkIn, linkMailsTo, waitForLinkMail } from '../../server/support/agreement-link.ts'
import { makeClaimData, makePng } from '../../server/support/claim-fixtures.ts'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  downloadedFile,
  keepScreenshot,
  proofOfWorkHeaders,
  shown,
} from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { requestAgreementLink } from './agreement-link.ts'

/** A Step 2 claim filed straight through the API: this spec is about finding it afterwards. */
async function fileClaim(person: { firstName: string; email: string; phoneNumber: string }): Promise<void> {
  const form = new FormData()
  form.append('data', JSON.stringify(makeClaimData({ ...person, lastName: 'Mensah' })))
  form.append('agreementDate', new Date().toISOString().slice(0, 10))
  form.append(
    'screenshot',
    new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))], { type: 'image/png' }),
    'a.png',
  )
  const response = await fetch(`${baseUrl()}/api/forms/earnin/submissions`, {
    method: 'POST',
    headers: await proofOfWorkHeaders(),
    body: form,
  })
  expect(response.status).toBe(201)
}

describe('a claimant gets a one-time link by e-mail and opens their agreement with it', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  async function openPage(width: number): Promise<{ page: Page; pageErrors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    return { page, pageErrors }
  }

  it('asks, opens the link and downloads with the keyboard alone, at 1280 px', async () => {
    const person = { firstName: 'Kwame', email: 'kwame.mensah@example.com', phoneNumber: '(702) 555-0131' }
    await fileClaim(person)
    const { page, pageErrors } = await openPage(1280)
    await page.goto(`${baseUrl()}/view-agreement`)
    await shown(page.getByRole('heading', { name: 'View My Agreement' }))

    await tabTo(page, '#lookup-email')
    await typeText(page, person.email)
    await tabTo(page, '#lookup-phone')
    await typeText(page, '7025550131')
    await tabTo(page, 'form button[type="submit"]')
    const dataDir = inject('dataDir')
    const seen = linkMailsTo(dataDir, person.email)
    await page.keyboard.press('Enter')
    await shown(page.getByRole('heading', { name: 'Check Your Email' }))
    await keepScreenshot(page, 'agreement-link-asked-1280')
    const link = linkIn((await waitForLinkMail({ dataDir, address: person.email, seen })).eml)!

    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    expect(await shown(page.getByText('We found your Earnin agreement signed on'))).toContain('Earnin')
    expect(await shown(page.getByText(/^You can download these agreements until \d{1,2}:\d{2}/))).toMatch(
      /After that, ask for a new link\.$/,
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'agreement-link-opened-1280')

    // the PDF is the first download offered
    await tabTo(page, '.download-actions button.submit')
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(download.suggestedFilename()).toBe('Kwame-Mensah-agreement.pdf')
    const pdf = fs.readFileSync(await downloadedFile(download))
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pageErrors).toEqual([])
  })

  it('fits a phone: the answer, the opened agreements and the refusal of a spent link, at 390 px', async () => {
    const person = { firstName: 'Abena', email: 'abena.mensah@example.com', phoneNumber: '(702) 555-0132' }
    await fileClaim(person)
    const { page, pageErrors } = await openPage(390)
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: person.email, phone: '702-555-0132' })
    await keepScreenshot(page, 'agreement-link-asked-390')
    const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
    expect(await fitsWidth()).toBe(true)

    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    await keepScreenshot(page, 'agreement-link-opened-390')
    expect(await fitsWidth()).toBe(true)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Download your .+ agreement \(PDF\)$/ }).click(),
    ])
    expect(download.suggestedFilename()).toBe('Abena-Mensah-agreement.pdf')

    await page.goto(link)
    expect(await shown(page.getByRole('alert'))).toBe(
      'This link has already been used or has expired. Ask for a new one below.',
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'agreement-link-spent-390')
    expect(pageErrors).toEqual([])
  })

  it('speaks Spanish when the link was asked for in Spanish', async () => {
    const person = { firstName: 'Lucía', email: 'lucia.mensah@example.com', phoneNumber: '(702) 555-0133' }
    await fileClaim(person)
    const { page } = await openPage(390)
    await page.goto(`${baseUrl()}/view-agreement?lang=es`)
    await page.getByLabel('Correo electrónico').fill(person.email)
    await page.getByLabel('Número de teléfono').fill('7025550133')
    await page.getByRole('button', { name: 'Buscar mi acuerdo' }).click()
    expect(await shown(page.getByRole('status'))).toContain('Si tenemos un acuerdo con estos datos')
  })
})
