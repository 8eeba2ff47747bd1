import type { FileChooser, Page } from 'playwright-core'

const MAX_TABS = 60

/**
 * Presses Tab (as a keyboard user does) until the focused element matches the CSS selector; fails if
 * it never gets there, which is what a keyboard trap or an unreachable control looks like. A page of
 * many controls (a staff page's forms and tables) may allow more presses.
 */
export async function tabTo(page: Page, selector: string, { maxTabs = MAX_TABS } = {}): Promise<void> {
  for (let presses = 0; presses < maxTabs; presses++) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return
    await page.keyboard.press('Tab')
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing')
  throw new Error(`Tab never reached ${selector} in ${maxTabs} presses; focus is on ${focused}`)
}

/** The accessible description of the focused element: the texts its aria-describedby names. */
export async function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const ids = document.activeElement?.getAttribute('aria-describedby')?.split(/\s+/) ?? []
    return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ')
  })
}

/** Types text into the focused field the way a keyboard does, key by key. */
export async function typeText(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: 5 })
}

/**
 * Tabs to a file field and presses Space to open its picker, as a keyboard user does; gives the picker.
 * A press that opened nothing within 5 s (focus taken by the page's own re-render meanwhile) is made
 * again from the field, up to three times, as the person would.
 */
export async function openFilePickerByKeyboard(page: Page, selector: string): Promise<FileChooser> {
  for (let attempt = 1; ; attempt++) {
    await tabTo(page, selector)
    const picker = page.waitForEvent('filechooser', { timeout: 5_000 })
    await page.keyboard.press('Space')
    try {
      return await picker
    } catch (error) {
      if (attempt === 3) throw error
    }
  }
}
