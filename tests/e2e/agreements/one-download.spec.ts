import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'
import { requestAgreementLink } from './agreement-link.ts'

// The opened status page carries one download of each agreement (the PDF), named for its app, and the
// lookup's fields show their whole placeholder on a phone.

const PLACEHOLDER = { en: 'Phone used for Step 2', es: 'Teléfono usado en el Paso 2' } as const
const EMAIL_PLACEHOLDER = { en: 'Email used for Step 2', es: 'Correo usado en el Paso 2' } as const

/** Whether the field's placeholder, in its own font, fits the field's text box. */
const placeholderFits = (page: Page, selector: string) =>
  page.locator(selector).evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input)
    const context = document.createElement('canvas').getContext('2d')!
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    return context.measureText(input.placeholder).width <= room
  })

describe('the opened status page gives one download a agreement', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const { width, locale, seq } of [
    { width: 390, locale: 'en', seq: '91' },
    { width: 1280, locale: 'en', seq: '92' },
    { width: 390, locale: 'es', seq: '93' },
  ] as const) {
    it(`shows each placeholder whole and one PDF download per agreement (${width} px, ${locale})`, async () => {
      const email = `one.download.${seq}@example.com`
      const phoneDigits = `70255502${seq}`
      for (const app of ['brigit', 'cleo']) await fileClaim(app, { email, phoneDigits })
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } })
      const page = await context.newPage()
      await page.goto(`${baseUrl()}/view-agreement${locale === 'en' ? '' : `?lang=${locale}`}`)
      expect(await page.locator('#lookup-phone').getAttribute('placeholder')).toBe(PLACEHOLDER[locale])
      expect(await page.locator('#lookup-email').getAttribute('placeholder')).toBe(EMAIL_PLACEHOLDER[locale])
      expect(await placeholderFits(page, '#lookup-phone')).toBe(true)
      expect(await placeholderFits(page, '#lookup-email')).toBe(true)
      await keepScreenshot(page, `lookup-${width}-${locale}`)

      const link = await requestAgreementLink(page, { email, phone: phoneDigits })
      await page.goto(link)
      await shown(page.locator('.found-agreement').first())
      const downloads = page.locator('.found-agreement .download-actions button')
      expect(await downloads.count()).toBe(2)
      expect(await downloads.allInnerTexts()).toEqual(
        locale === 'en'
          ? ['Download your Brigit agreement (PDF)', 'Download your Cleo agreement (PDF)']
          : ['Descargar su acuerdo de Brigit (PDF)', 'Descargar su acuerdo de Cleo (PDF)'],
      )
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, `opened-${width}-${locale}`)

      // the keyboard reaches the download and starts it
      await page.locator('body').focus()
      await tabTo(page, '.found-agreement .download-actions button')
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
      expect(download.suggestedFilename()).toMatch(/-agreement\.pdf$/)
      await context.close()
    })
  }
})
