import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, queryDb, reusedPhonePage, shown } from '../browser.ts'
import { fillClaim, submitButton } from './fill-claim.ts'

const OPEN_APPS: [slug: string, name: string, title: string][] = [
  ['super-com', 'Super.com', 'Super.com Subscription Claim (Step 2)'],
  ['brigit', 'Brigit', 'Brigit Cash Advance Claim (Step 2)'],
  ['albert', 'Albert', 'Albert Cash Advance Claim (Step 2)'],
  ['cleo', 'Cleo', 'Cleo Cash Advance Claim (Step 2)'],
  ['earnin', 'Earnin', 'Earnin Cash Advance Claim (Step 2)'],
  ['empower', 'Empower', 'Empower Cash Advance Claim (Step 2)'],
  ['floatme', 'FloatMe', 'FloatMe Cash Advance Claim (Step 2)'],
  ['moneylion', 'MoneyLion', 'MoneyLion Cash Advance Claim (Step 2)'],
  ['dailypay', 'DailyPay', 'DailyPay Earned Wage Access Claim (Step 2)'],
  ['chime', 'Chime', 'Chime SpotMe Claim (Step 2)'],
]

describe('every app has its Step 2 route', () => {
  let browser: Browser
  const openPhonePage = reusedPhonePage()
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it.each(OPEN_APPS)('/%s shows its title and intro and takes a claim', async (slug, name, title) => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/${slug}`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe(title)
    expect(await page.title()).toBe(title)
    await shown(
      page.getByText(
        `Congratulations on qualifying for the next step in our case against ${name}. Please provide the information to continue.`,
      ),
    )
    // "an Earnin", "a Brigit": the article is the config's, right for each name
    const article = /^[AEIOU]/.test(name) ? 'an' : 'a'
    await shown(page.getByText(`showing ${article} ${name} subscription fee or cash advance transaction`))

    await fillClaim(page, {
      phoneDigits: `213555${String(OPEN_APPS.findIndex(([s]) => s === slug)).padStart(4, '0')}`,
    })
    // the agreement (albert shows none) stands above the signature pad: read, and tabbed through, first
    if (slug !== 'albert') await page.getByTestId('agreement-text').waitFor()
    const order = await page.evaluate(() => {
      const agreement = document.querySelector('[data-testid="agreement-text"]')
      const pad = document.querySelector('canvas#root_signature')
      if (!agreement || !pad) return 'no agreement'
      return agreement.compareDocumentPosition(pad) & Node.DOCUMENT_POSITION_FOLLOWING
        ? 'agreement first'
        : 'pad first'
    })
    expect(order).toBe(slug === 'albert' ? 'no agreement' : 'agreement first')
    await submitButton(page, name).click()
    await page.waitForURL(`**/${slug}-success`)
    await shown(page.getByText(`${name} Information Submitted Successfully`))
    expect(queryDb('SELECT id FROM claims WHERE app = ?', slug).length).toBeGreaterThanOrEqual(1)
    expect(pageErrors).toEqual([])
  })

  it('/klover shows the closed notice with the firm mailbox instead of a form', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/klover`)
    await shown(page.getByRole('heading', { name: 'Step 2 Submission Deadline Passed' }))
    await shown(page.getByText('We will be in touch shortly'))
    expect(await page.getByRole('link', { name: 'claims@example.com' }).getAttribute('href')).toBe(
      'mailto:claims@example.com',
    )
    expect(await page.getByRole('button', { name: /Submit/ }).count()).toBe(0)
  })

  it('an unknown route shows a page-not-found notice with a way home', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/no-such-app`)
    expect(await page.getByRole('heading', { name: 'Page not found' }))
    expect(await page.getByRole('link', { name: 'Go back to the home page' }).getAttribute('href')).toBe('/')
  })
})
