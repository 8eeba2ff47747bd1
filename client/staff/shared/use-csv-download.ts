import { useState } from 'react'
import { downloadCsv, isUnauthorized } from './staff-api.ts'

/** Runs one CSV download at a time; a failure is told with the given alert text, a 401 ends the session. */
export function useCsvDownload({
  failureMessage,
  onUnauthorized,
}: {
  failureMessage: string
  onUnauthorized: () => void
}): { isDownloading: boolean; download: (options: { url: string; fallbackName: string }) => Promise<void> } {
  const [isDownloading, setIsDownloading] = useState(false)
  const download = async (options: { url: string; fallbackName: string }) => {
    if (isDownloading) return
    setIsDownloading(true)
    try {
      await downloadCsv(options)
    } catch (error) {
      if (isUnauthorized(error)) {
        onUnauthorized()
        return
      }
      console.error(error)
      window.alert(failureMessage)
    } finally {
      setIsDownloading(false)
    }
  }
  return { isDownloading, download }
}

/** Today as YYYY-MM-DD in the user's own calendar. */
export function localIsoDate(date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
