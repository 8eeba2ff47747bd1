/** How many of a file's first bytes `screenshotType` reads. */
export const SCREENSHOT_HEAD_BYTES = 8

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff]

/**
 * The screenshot type a file's first bytes show, whatever its name or the type the browser reports:
 * the form's check as soon as a file is picked (the server checks the whole file again).
 * @example screenshotType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])) // 'image/jpeg'
 */
export function screenshotType(head: Uint8Array): 'image/png' | 'image/jpeg' | undefined {
  const startsWith = (signature: number[]) => signature.every((byte, index) => head[index] === byte)
  if (startsWith(PNG_SIGNATURE)) return 'image/png'
  if (startsWith(JPEG_SIGNATURE)) return 'image/jpeg'
  return undefined
}
