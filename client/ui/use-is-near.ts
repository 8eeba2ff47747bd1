import { useEffect, useState } from 'react'

/**
 * How far outside the screen a part counts as near: a screen's height, either way. A flick of the thumb
 * scrolls about that far, and the part must be there when it comes into view, even on a slow phone
 * (Chrome's own lazy images start 1250-2500 px ahead).
 */
const NEAR_MARGIN = '100% 0px'
const FIRST_INPUT_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const
/** The latest a part is fetched after the page is drawn, when the browser is never idle before. */
const IDLE_TIMEOUT_MS = 2_000

/**
 * Whether a part fetched on demand is wanted yet: once the element given to `ref` comes within a
 * screen of view, or the person first touches, clicks or presses a key anywhere on the page (a
 * keyboard user can Tab to it faster than anyone scrolls), or the browser is first idle after the
 * page is drawn. The last keeps the part off the page's first bytes without racing a person: a
 * stroke drawn on the signature pad before its code arrived would be lost. It stays true from then on.
 */
export function useIsNear(): [isNear: boolean, ref: (element: Element | null) => void] {
  const [element, setElement] = useState<Element | null>(null)
  const [isNear, setIsNear] = useState(false)
  useEffect(() => {
    if (isNear || !element) return
    if (typeof IntersectionObserver === 'undefined') {
      setIsNear(true)
      return
    }
    const near = () => setIsNear(true)
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) near()
      },
      { rootMargin: NEAR_MARGIN },
    )
    observer.observe(element)
    for (const type of FIRST_INPUT_EVENTS) document.addEventListener(type, near, { capture: true })
    const idle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(near, { timeout: IDLE_TIMEOUT_MS })
        : undefined
    const timer = idle === undefined ? setTimeout(near, IDLE_TIMEOUT_MS) : undefined
    return () => {
      if (idle !== undefined) cancelIdleCallback(idle)
      clearTimeout(timer)
      observer.disconnect()
      for (const type of FIRST_INPUT_EVENTS) document.removeEventListener(type, near, { capture: true })
    }
  }, [element, isNear])
  return [isNear, setElement]
}
