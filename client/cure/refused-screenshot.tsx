import { useEffect, useState } from 'react'
import type { OpenCureRequest } from '../../src/api/cure.ts'
import { useText } from '../i18n/use-text.ts'

/**
 * The screenshot the reviewer could not accept, beside the reason, so the claimant sees what to do
 * better. Fetched by POST with the link's token (never in an address) and shown from a blob; the page
 * goes on without it if it cannot be had.
 */
export function RefusedScreenshot({ token }: { token: string }) {
  const t = useText()
  const [src, setSrc] = useState<string>()
  useEffect(() => {
    let url: string | undefined
    let gone = false
    const load = async (attempt: number): Promise<void> => {
      const response = await fetch('/api/cures/screenshot', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token } satisfies OpenCureRequest),
      }).catch(() => undefined)
      if (gone) return
      if (response?.ok) {
        const blob = await response.blob()
        if (gone) return
        url = URL.createObjectURL(blob)
        setSrc(url)
        return
      }
      // a link refused (4xx) stays refused; a network or server failure is tried again, twice
      if ((response && response.status < 500) || attempt === 3) return
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
      return load(attempt + 1)
    }
    void load(1).catch(() => undefined)
    return () => {
      gone = true
      if (url) URL.revokeObjectURL(url)
    }
  }, [token])
  if (!src) return null
  return (
    <figure className="cure-refused">
      <img src={src} alt={t('The screenshot we could not accept')} />
      <figcaption>{t('The screenshot we could not accept')}</figcaption>
    </figure>
  )
}
