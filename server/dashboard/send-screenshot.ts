import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Response } from 'express'

/**
 * Sends a stored screenshot to a staff browser as an image that can do nothing but show: no sniffing,
 * no script, no loading from elsewhere, not embeddable by another site, never cached.
 */
export async function sendScreenshot(
  res: Response,
  { file, type, filename }: { file: { body: Readable; size: number }; type: string; filename: string },
): Promise<void> {
  res
    .set({
      'Content-Type': type,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Content-Disposition': `inline; filename="${filename}"`,
      'Content-Length': String(file.size),
    })
    .status(200)
  // a store that fails half-way cuts the response (the length then tells the browser it is short);
  // a viewer who leaves early ends the read from the disk or the bucket
  await pipeline(file.body, res).catch(() => res.destroy())
}
