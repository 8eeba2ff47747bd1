import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'
import { APPS_QUESTION } from './fill-intake.ts'

// The main form's agreement reads right for the apps chosen: "the Earnin app", "the Earnin and Chime apps".

const TEXT = {
  en: {
    question: APPS_QUESTION,
    agreement: 'Attorney-Client Contingency Fee Agreement',
    one: 'your use of the Earnin app.',
    several: 'your use of the Earnin and Chime apps.',
  },
  es: {
    question: '¿Qué aplicaciones de adelanto de efectivo ha usado?',
    agreement: 'Acuerdo de Honorarios Contingentes entre Abogado y Cliente',
    one: 'su uso de la aplicación Earnin.',
    several: 'su uso de las aplicaciones Earnin y Chime.',
  },
} as const

/** Ticks an app's box with the keyboard: focus on it, then Space. */
async function tickByKeyboard(page: Page, question: string, app: string): Promise<void> {
  await page.getByRole('group', { name: question }).getByLabel(app, { exact: true }).focus()
  await page.keyboard.press('Space')
}

/** The agreement's words as the page shows them now, above the signature pad. */
async function agreementText(page: Page, text: (typeof TEXT)['en' | 'es']): Promise<string> {
  const box = page.getByRole('region', { name: text.agreement })
  await box.scrollIntoViewIfNeeded()
  await shown(box)
  return (await box.innerText()).replace(/\s+/g, ' ')
}

describe('the main form agreement names one app or several', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const { width, locale } of [
    { width: 390, locale: 'en' },
    { width: 1280, locale: 'en' },
    { width: 390, locale: 'es' },
  ] as const) {
    it(`says "app" for one and "apps" for two, chosen by keyboard (${width} px, ${locale})`, async () => {
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } })
      const page = await context.newPage()
      const text = TEXT[locale]
      await page.goto(`${baseUrl()}/${locale === 'en' ? '' : `?lang=${locale}`}`)
      await shown(page.getByRole('group', { name: text.question }))

      await tickByKeyboard(page, text.question, 'Earnin')
      const one = await agreementText(page, text)
      expect(one).toContain(text.one)

      await tickByKeyboard(page, text.question, 'Chime')
      const several = await agreementText(page, text)
      expect(several).toContain(text.several)
      expect(several).not.toContain(text.one)
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, `intake-agreement-apps-${width}-${locale}`)
      await context.close()
    })
  }
})
