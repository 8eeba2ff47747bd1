import fs from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, downloadedFile, openPhonePage, queryDb, shown } from '../browser.ts'
import { drawSignature, fillClaim, submitButton } from '../step2/fill-claim.ts'
import { askForLink, linkMailCount, requestAgreementLink } from './agreement-link.ts'

const TODAY = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })

/** The text a person reads in an HTML fragment laid out in the same agreement box as the form's. */
async function readableText(page: Page, html: string): Promise<string> {
  return page.evaluate((fragment) => {
    const holder = document.createElement('div')
    holder.className = 'agreement-scroll'
    holder.innerHTML = fragment
    document.body.append(holder)
    const text = holder.innerText
    holder.remove()
    return text
  }, html)
}

describe('a claimant signs the agreement and later finds it', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('fills the claimant name, e-mail, phone, date and signature into the agreement as they type', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    const agreement = page.getByTestId('agreement-text')
    expect(await shown(agreement)).toContain('Attorney-Client Contingency Fee Agreement')
    expect(await agreement.getByAltText('Signature').count()).toBe(0)

    await page.getByLabel('First Name').fill('Marta')
    await page.getByLabel('Last Name').fill('Quispe')
    await page.getByLabel('Email Address').fill('marta@example.com')
    await page.getByLabel('Phone Number').pressSequentially('7025550111')
    const text = await agreement.innerText()
    expect(text).toContain('Marta Quispe')
    expect(text).toContain('marta@example.com')
    expect(text).toContain('(702) 555-0111')
    expect(text).toContain(TODAY)
    expect(text).toContain('18. Client Representation Under Penalty of Perjury')
    expect(text).toContain('Acknowledgment of Representation')

    await drawSignature(page)
    expect(await agreement.getByAltText('Signature').count()).toBeGreaterThan(0)
  })

  it('shows only sections 1 and 2 on Earnin and no agreement on Albert', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/earnin`)
    const text = await shown(page.getByTestId('agreement-text'))
    expect(text).toContain('2. Authorization')
    expect(text).not.toContain('3. Responsibilities')
    await page.goto(`${baseUrl()}/albert`)
    await shown(page.getByLabel('First Name'))
    expect(await page.getByTestId('agreement-text').count()).toBe(0)
  })

  it('stores word for word the agreement the form showed, and the claimant finds and downloads it', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await fillClaim(page, {
      firstName: 'Ruth',
      lastName: 'Okafor',
      email: 'Ruth.Okafor@Example.com',
      phoneDigits: '7025550112',
    })
    const shownText = await page.getByTestId('agreement-text').innerText()
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')

    const [record] = queryDb<{ html: string; sha256: string }>(
      `SELECT r.html, r.sha256 FROM agreement_records r JOIN claims c ON c.id = r.claim_id
       WHERE c.app = 'brigit' AND c.phone_number = '(702) 555-0112'`,
    )
    expect(record).toBeDefined()
    expect(await readableText(page, record!.html)).toBe(shownText)

    await page.goto(`${baseUrl()}/view-agreement`)
    expect(await shown(page.getByRole('heading', { name: 'View My Agreement' }))).toBe('View My Agreement')
    const find = page.getByRole('button', { name: 'Find My Agreement' })
    expect(await find.isDisabled()).toBe(true)

    // a wrong phone gets the very answer a match gets, and no e-mail
    await askForLink(page, { email: 'ruth.okafor@example.com', phone: '7025550199' })
    const answer = await shown(page.locator('.notice-box[role="status"]'))
    expect(answer).toContain('If we hold an agreement for these details, we have sent a link')

    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, {
      email: 'ruth.okafor@example.com',
      phone: '(702) 555-0112',
    })
    expect(await shown(page.locator('.notice-box[role="status"]'))).toBe(answer)
    expect(linkMailCount('ruth.okafor@example.com')).toBe(1)

    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    // the token leaves the address bar once the link is opened
    expect(page.url()).toBe(`${baseUrl()}/view-agreement`)
    await shown(page.getByText(`We found your Brigit agreement signed on ${TODAY}.`))
    const found = await page.getByLabel('Brigit agreement as signed').innerText()
    expect(found).toBe(shownText)

    // one download a card, the PDF
    expect(await page.getByRole('button', { name: /^Download/ }).count()).toBe(1)
    const [pdfDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download your Brigit agreement (PDF)' }).click(),
    ])
    expect(pdfDownload.suggestedFilename()).toBe('Ruth-Okafor-agreement.pdf')
    expect(
      fs
        .readFileSync(await downloadedFile(pdfDownload))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')

    // the link works once
    const again = await browser.newPage()
    await again.goto(link)
    expect(await shown(again.getByRole('alert'))).toBe(
      'This link has already been used or has expired. Ask for a new one below.',
    )
    await shown(again.getByRole('button', { name: 'Find My Agreement' }))
    await again.close()
    expect(pageErrors).toEqual([])
  })

  it('asks for a valid e-mail before searching', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/view-agreement`)
    await page.getByLabel('Email Address').fill('not-an-email')
    await page.getByLabel('Phone Number').fill('7025550112')
    await page.getByRole('button', { name: 'Find My Agreement' }).click()
    await shown(page.getByText('Please enter a valid email address'))
  })

  it('shows a name carrying HTML and template syntax as plain text in the agreement', async () => {
    const { page } = await openPhonePage(browser)
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(`${baseUrl()}/cleo`)
    await page.getByLabel('First Name').fill('<img src=x onerror=alert(1)>')
    await page.getByLabel('Last Name').fill('{{firm.firmName}}')
    const text = await page.getByTestId('agreement-text').innerText()
    expect(text).toContain('<img src=x onerror=alert(1)> {{firm.firmName}}')
    expect(dialogs).toEqual([])
  })
})
