import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'

const FAILED =
  'Your browser could not finish this form’s automatic security check. Trying again… If this message stays, check your connection and reload the page.'
const FAILED_ES =
  'Su navegador no pudo completar la comprobación de seguridad automática de este formulario. Lo está intentando de nuevo… Si este mensaje no desaparece, revise su conexión y vuelva a cargar la página.'

/** The POSTs' X-Proof-Of-Work headers, in order (undefined where a POST had none). */
function proofsSent(page: Page): (string | undefined)[] {
  const sent: (string | undefined)[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') sent.push(request.headers()['x-proof-of-work'])
  })
  return sent
}

async function search(page: Page): Promise<void> {
  await page.getByLabel('Email Address').fill('nobody.pow@example.com')
  await page.getByLabel('Phone Number').fill('7025550177')
  await page.getByRole('button', { name: 'Find My Agreement' }).click()
}

describe('the proof of work on the claimant forms', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('is solved while the claimant types and sent with the search, with nothing shown about it', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    const sent = proofsSent(page)
    await page.goto(`${baseUrl()}/view-agreement`)
    await search(page)
    await shown(page.getByRole('heading', { name: 'Check Your Email' }))
    expect(sent).toHaveLength(1)
    const payload = JSON.parse(Buffer.from(sent[0] ?? '', 'base64').toString('utf8')) as Record<
      string,
      unknown
    >
    expect(Object.keys(payload).sort()).toEqual(['algorithm', 'challenge', 'number', 'salt', 'signature'])
    expect(await page.getByText(/automatic security check/).count()).toBe(0)

    // a second search spends a second challenge, solved right after the first was taken
    await search(page)
    await expect.poll(() => sent.length).toBe(2)
    expect(sent[1]).not.toBe(sent[0])
    await shown(page.getByRole('heading', { name: 'Check Your Email' }))
    expect(pageErrors).toEqual([])
  })

  it('says so while no challenge can be fetched, retries by itself, and searches once it can', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.route('**/api/proof-of-work', (route) => route.abort())
    await page.goto(`${baseUrl()}/view-agreement`)
    expect(await shown(page.getByRole('alert'))).toBe(FAILED)

    await page.unroute('**/api/proof-of-work')
    await page.getByRole('alert').waitFor({ state: 'detached', timeout: 15_000 })
    await search(page)
    await shown(page.getByRole('heading', { name: 'Check Your Email' }))
    expect(pageErrors).toEqual([])
  })

  it('says so in Spanish on a Spanish page', async () => {
    const { page } = await openPhonePage(browser)
    await page.route('**/api/proof-of-work', (route) => route.fulfill({ status: 503, body: '' }))
    await page.goto(`${baseUrl()}/view-agreement?lang=es`)
    expect(await shown(page.getByRole('alert'))).toBe(FAILED_ES)
  })
})

describe('PROOF_OF_WORK=off', () => {
  let browser: Browser
  let server: OwnServer
  beforeAll(async () => {
    server = await startOwnServer('pow-off', { PROOF_OF_WORK: 'off' })
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('has the page send no proof of work, and search all the same', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    const sent = proofsSent(page)
    await page.goto(`${server.url}/view-agreement`)
    await search(page)
    await shown(page.getByRole('heading', { name: 'Check Your Email' }))
    expect(sent).toEqual([undefined])
    expect(pageErrors).toEqual([])
  })
})
