const FONT_FAMILY = 'Dancing Script'
const WIDTH = 600
const HEIGHT = 160
const MAX_FONT_PX = 64

let fontLoading: Promise<void> | undefined

/**
 * The signature style's font, fetched only when a claimant chooses to type (a drawn signature never
 * needs it). Self-hosted, with Latin Extended and Vietnamese, so "Łukasz" and "Nguyễn" are drawn in it.
 */
export function loadSignatureFont(): Promise<void> {
  fontLoading ??= import('@fontsource/dancing-script/400.css').then(() => undefined)
  fontLoading.catch(() => (fontLoading = undefined))
  return fontLoading
}

/**
 * The typed name drawn in the signature style as a PNG data URL, like the pad gives: the font is
 * loaded for these very characters first, so the image never falls back to a plain font.
 */
export async function typedSignaturePng(name: string): Promise<string> {
  await loadSignatureFont()
  await document.fonts.load(`${MAX_FONT_PX}px "${FONT_FAMILY}"`, name)
  const canvas = document.createElement('canvas')
  canvas.width = WIDTH
  canvas.height = HEIGHT
  const context = canvas.getContext('2d')
  if (!context) throw new Error('this browser cannot draw the signature')
  let size = MAX_FONT_PX
  context.font = `${size}px "${FONT_FAMILY}"`
  // a long name gets a smaller size, so all of it fits
  while (size > 18 && context.measureText(name).width > WIDTH - 40) {
    size -= 4
    context.font = `${size}px "${FONT_FAMILY}"`
  }
  context.fillStyle = '#111827'
  context.textAlign = 'center'
  context.textBaseline = 'middle'
  context.fillText(name, WIDTH / 2, HEIGHT / 2)
  return canvas.toDataURL('image/png')
}
