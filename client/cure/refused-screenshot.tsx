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
    void fetch('/api/cures/screenshot', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token } satisfies OpenCureRequest),
    })
      .then(async (response) => (response.ok ? response.blob() : undefined))
      .then((blob) => {
        if (!blob || gone) return
        url = URL.createObjectURL(blob)
        setSrc(url)
      })
      .catch(() => undefined)
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
