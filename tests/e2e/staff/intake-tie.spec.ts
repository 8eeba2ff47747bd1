import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  keepScreenshot,
  proofOfWorkHeaders,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { fileClaim } from '../seed.ts'

// phones and e-mails no other spec uses: one claimant whose main form came without its link (anyone
// could have sent it), one who filed Step 2 through their main form's link
const UNPROVEN = {
  firstName: 'Noa',
  email: 'noa.untied@example.com',
  phoneDigits: '6025550181',
  phone: '(602) 555-0181',
}
const LINKED = {
  firstName: 'Kai',
  email: 'kai.linked@example.com',
  phoneDigits: '6025550182',
  phone: '(602) 555-0182',
}

async function sendIntake(claimant: typeof UNPROVEN): Promise<CreatedIntake> {
  const response = await fetch(`${baseUrl()}/api/intake`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
    body: JSON.stringify(
      intakeBody({
        firstName: claimant.firstName,
        lastName: 'Tie',
        email: claimant.email,
        phone: claimant.phone,
        cashAdvanceApps: ['chime'],
      }),
    ),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as CreatedIntake
}

describe("a claim's main form on its review, confirmed or not", () => {
  let browser: Browser
  let context: BrowserContext
  const claims = { unproven: 0, linked: 0 }
  const references = { unproven: '', linked: '' }

  beforeAll(async () => {
    claims.unproven = await fileClaim('chime', UNPROVEN)
    references.unproven = (await sendIntake(UNPROVEN)).reference
    const linked = await sendIntake(LINKED)
    references.linked = linked.reference
    claims.linked = await fileClaim('chime', LINKED, {
      journeyToken: linked.steps[0]!.path.split('#prefill=')[1]!,
    })
    browser = await connectBrowser()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  for (const width of [1280, 390]) {
    it(`says "not confirmed" beside a main form sent without its link, at ${width} px`, async () => {
      context = await browser.newContext({ viewport: { width, height: 900 } })
      await context.addCookies(await staffSessionCookies())
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      const mainForm = () =>
        page
          .getByRole('region', { name: 'Selected Submission Details' })
          .locator('.claim-review p', { hasText: 'Main form:' })

      await page.goto(`${baseUrl()}/chime-admin?claim=${claims.unproven}`)
      expect(await shown(mainForm())).toBe(`Main form: ${references.unproven}, not confirmed`)
      await keepScreenshot(page, `intake-tie-unconfirmed-${width}`)
      expect(await axeViolations(page)).toEqual([])

      await page.goto(`${baseUrl()}/chime-admin?claim=${claims.linked}`)
      expect(await shown(mainForm())).toBe(`Main form: ${references.linked}`)
      expect(errors).toEqual([])
      await context.close()
    })
  }
})
