/** 10 MB, the spec's screenshot limit, checked when the file is picked and again by the server. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
/**
 * The screenshot types a claim takes (the form asks for a PNG or JPG; a phone's screenshot is one):
 * the picker offers only these and the server checks the bytes.
 * @example SCREENSHOT_TYPES.includes('image/png') // true
 */
export const SCREENSHOT_TYPES: readonly string[] = ['image/png', 'image/jpeg']

/** Texts the claimant sees, verbatim from the product spec. */
export const DUPLICATE_CLAIM_MESSAGE =
  'A submission with this phone number already exists. Multiple submissions will not increase your chances of compensation.'
export const NOT_AN_IMAGE_MESSAGE = 'Please upload an image file'
export const FILE_TOO_LARGE_MESSAGE = 'File size must be less than 10MB'
export const SIGNATURE_REQUIRED_MESSAGE = 'Please provide your signature'
