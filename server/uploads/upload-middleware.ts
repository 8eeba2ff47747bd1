import multer from 'multer'
import { MAX_UPLOAD_BYTES } from '../../src/claim-messages.ts'

export const SCREENSHOT_FIELD = 'screenshot'
export const DATA_FIELD = 'data'

/** Multipart parsing for a claim: one JSON `data` field and one `screenshot` file, held in memory until checked. */
export const claimUpload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 2 * 1024 * 1024 },
}).single(SCREENSHOT_FIELD)
