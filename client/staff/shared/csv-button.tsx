import type { ReactNode } from 'react'
import type { useCsvDownload } from './use-csv-download.ts'

/** A page's CSV download: off, and saying so, while one is under way (a second click would start another). */
export function CsvButton({
  csv,
  url,
  fallbackName,
  children = 'Download CSV',
}: {
  csv: ReturnType<typeof useCsvDownload>
  url: string
  /** The file's name when the server's answer names none. */
  fallbackName: string
  children?: ReactNode
}) {
  return (
    <button
      type="button"
      className="primary"
      disabled={csv.isDownloading}
      onClick={() => void csv.download({ url, fallbackName })}
    >
      {csv.isDownloading ? 'Downloading...' : children}
    </button>
  )
}
