import { describe, expect, it } from 'vitest'
import { makeJpeg, withExif, withXmp } from '../../../scripts/seed/jpeg.ts'
import { screenshotFacts } from '../../../server/fraud/screenshot-facts.ts'
import { makePng } from '../support/claim-fixtures.ts'

const PHONE = { width: 390, height: 844 }
const taken = new Date(Date.UTC(2026, 9, 1, 10, 0, 0))

describe('screenshotFacts', () => {
  it("reads a phone's plain screenshot as unedited, at its size", async () => {
    expect(await screenshotFacts(makePng(PHONE))).toEqual({ ...PHONE, modifiedAfterCapture: false })
  })

  it('names the editor an EXIF Software tag gives', async () => {
    const bytes = withExif(makeJpeg(PHONE), { software: 'Adobe Photoshop 25.0 (Windows)', modified: taken })
    expect(await screenshotFacts(bytes)).toMatchObject({ ...PHONE, editor: 'Adobe Photoshop 25.0 (Windows)' })
  })

  it('names the editor an XMP CreatorTool gives', async () => {
    expect(await screenshotFacts(withXmp(makeJpeg(PHONE), 'Canva'))).toMatchObject({ editor: 'Canva' })
  })

  it('tells a picture changed two days after it was taken, and names no editor for a phone system', async () => {
    const modified = new Date(taken.getTime() + 2 * 86_400_000)
    const facts = await screenshotFacts(withExif(makeJpeg(PHONE), { software: '17.4.1', taken, modified }))
    expect(facts).toEqual({ ...PHONE, modifiedAfterCapture: true })
  })
})
