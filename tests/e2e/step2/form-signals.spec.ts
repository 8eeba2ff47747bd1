import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FormSignals } from '../../../src/form-signals.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { drawSignature, fillClaim, SCREENSHOT_PNG, submitButton } from './fill-claim.ts'
import { fillIntake, submitButton as submitIntakeButton } from '../intake/fill-intake.ts'

const BOT_MESSAGE_ES =
  'Este formulario lo completó un programa, no una persona. Si usted es una persona, vuelva a cargar la página e inténtelo de nuevo.'

/** A phone-sized page in a browser context of its own: its storage is one browser's. */
async function openBrowserPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  return { context, page: await context.newPage() }
}

function storedSignals(sql: string, key: string): FormSignals {
  const [row] = queryDb<{ signals: string | null }>(sql, key)
  expect(row, `no row for ${key}`).toBeDefined()
  return JSON.parse(row!.signals ?? 'null') as FormSignals
}

/** Puts text on the clipboard and pastes it into the focused field with the keyboard, as a person does. */
async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text)
  await page.keyboard.press('ControlOrMeta+V')
}

describe('what the forms see as a person fills them in, and the trap a bot falls into', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('sends a Step 2 claim with the browser’s id, the time taken and the pasted e-mail; the main form in the same browser sends the same id', async () => {
    const { context, page } = await openBrowserPage(browser)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() })
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()

    await tabTo(page, '#root_firstName')
    await typeText(page, 'Noa')
    await tabTo(page, '#root_lastName')
    await typeText(page, 'Kealoha')
    await tabTo(page, '#root_email')
    await pasteText(page, 'noa.kealoha@example.com')
    expect(await page.getByLabel('Email Address').inputValue()).toBe('noa.kealoha@example.com')
    await tabTo(page, '#root_phoneNumber')
    await typeText(page, '2065550141')
    await page.getByLabel('How many times did you take cash advances?').selectOption({ label: '3 times' })
    await page.getByLabel('How many months were you a member?').selectOption({ label: '12 months' })
    await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
    await drawSignature(page)
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')
    await shown(page.getByText('Brigit Information Submitted Successfully'))

    const claim = storedSignals('SELECT signals FROM claims WHERE email = ?', 'noa.kealoha@example.com')
    expect(claim.device).toMatch(/^[A-Za-z0-9_-]{22,64}$/)
    expect(claim.elapsedMs).toBeGreaterThan(0)
    expect(claim.pasted).toEqual(['email'])
    expect(new Set(claim.typed)).toEqual(new Set(['firstName', 'lastName', 'email', 'phoneNumber']))
    expect(claim.trap).toBeUndefined()

    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, { email: 'noa.intake@example.com', phoneDigits: '2065550142' })
    await submitIntakeButton(page).click()
    await page.waitForURL('**/thank-you')
    const intake = storedSignals(
      'SELECT signals FROM form_submissions WHERE email = ?',
      'noa.intake@example.com',
    )
    expect(intake.device).toBe(claim.device)
    expect(intake.pasted).toEqual([])
    expect(intake.typed).toEqual(expect.arrayContaining(['firstName', 'email', 'address', 'zipCode']))
    await context.close()
  })

  it('sends an id of the page’s own from a browser whose storage is blocked, and the claim is filed', async () => {
    const { context, page } = await openBrowserPage(browser)
    // what a browser that blocks the site's storage does: reading localStorage throws
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('storage is blocked', 'SecurityError')
        },
      })
    })
    await page.goto(`${baseUrl()}/cleo`)
    const storage = await page.evaluate(() => {
      try {
        return typeof window.localStorage
      } catch {
        return 'blocked'
      }
    })
    expect(storage).toBe('blocked')
    await fillClaim(page, { email: 'private.mode@example.com', phoneDigits: '2065550144' })
    await submitButton(page, 'Cleo').click()
    await page.waitForURL('**/cleo-success')
    const claim = storedSignals('SELECT signals FROM claims WHERE email = ?', 'private.mode@example.com')
    expect(claim.device).toMatch(/^[A-Za-z0-9_-]{22,64}$/)
    await context.close()
  })

  it('refuses, in Spanish, a Spanish form whose hidden field a script filled, and stores nothing', async () => {
    const { context, page } = await openBrowserPage(browser)
    await page.goto(`${baseUrl()}/brigit?lang=es`)
    await page.getByLabel('Nombre').fill('Robot')
    await page.getByLabel('Apellido').fill('Relleno')
    await page.getByLabel('Correo electrónico').fill('robot.relleno@example.com')
    await page.getByLabel('Número de teléfono').pressSequentially('2065550143')
    await page.getByLabel('Captura de pantalla del estado de cuenta bancario').setInputFiles(SCREENSHOT_PNG)
    await page.getByRole('button', { name: 'Escribir mi firma' }).click()
    await page.getByLabel('Su nombre completo').fill('Robot Relleno')
    await shown(page.getByText('✓ Firma registrada'))
    // as a bot does: every input of the form filled, the one no person sees included
    await page.evaluate(() => {
      const trap = document.querySelector<HTMLInputElement>('form input[name="website"]')
      if (!trap) throw new Error('the form has no hidden field')
      trap.value = 'https://cheap-pills.example'
    })
    await page.getByRole('button', { name: 'Enviar reclamo de Brigit' }).click()

    expect(await shown(page.getByRole('alert'))).toBe(BOT_MESSAGE_ES)
    expect(page.url()).toMatch(/\/brigit\?lang=es$/)
    expect(queryDb('SELECT id FROM claims WHERE email = ?', 'robot.relleno@example.com')).toEqual([])
    await keepScreenshot(page, 'form-signals-bot-refused-es-390')
    await context.close()
  })

  for (const path of ['/brigit', '/']) {
    it(`keeps the hidden field of ${path} out of the Tab order, the screen reader and the layout`, async () => {
      const { context, page } = await openBrowserPage(browser)
      await page.goto(`${baseUrl()}${path}`)
      await page.locator('form button.submit').waitFor()
      expect(await page.locator('form input[name="website"]').count()).toBe(1)
      expect(await page.getByRole('textbox', { name: /website/i }).count()).toBe(0)

      // every stop from the page's top to the submit button, none of them the hidden field
      const stops: string[] = []
      let isAtSubmit = false
      for (let presses = 0; presses < 150 && !isAtSubmit; presses++) {
        await page.keyboard.press('Tab')
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement | null
          return { name: element?.name ?? '', isSubmit: element?.matches('button.submit') ?? false }
        })
        stops.push(focused.name)
        isAtSubmit = focused.isSubmit
      }
      expect(isAtSubmit).toBe(true)
      expect(stops).not.toContain('website')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await keepScreenshot(page, `form-signals-${path === '/' ? 'intake' : 'brigit'}-390`)
      await page.setViewportSize({ width: 1280, height: 900 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
      await keepScreenshot(page, `form-signals-${path === '/' ? 'intake' : 'brigit'}-1280`)
      await context.close()
    })
  }
})
