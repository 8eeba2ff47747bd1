import type { Express } from 'express'
import request from 'supertest'
import {
  claimRequest,
  intakeRequest,
  SCREENSHOT_FIELD,
  type ClaimRequestInput,
  type IntakeRequestInput,
} from '../../../src/api/claim-request.ts'
import { makePng } from './claim-fixtures.ts'

/**
 * Posts a claim exactly as the Step 2 form does: the fields the form's own request builder gives, in its
 * order, then the screenshot.
 */
export function sendClaimAsForm(
  app: Express,
  input: ClaimRequestInput,
  screenshot: { content: Buffer; name: string } = {
    content: makePng({ width: 40, height: 30 }),
    name: 'statement.png',
  },
) {
  const { path, fields } = claimRequest(input)
  const post = request(app).post(path)
  for (const [name, value] of fields) post.field(name, value)
  return post.attach(SCREENSHOT_FIELD, screenshot.content, screenshot.name)
}

/** Posts a main-form intake exactly as the intake page does (its own request builder). */
export function sendIntakeAsForm(app: Express, input: IntakeRequestInput) {
  const { path, body } = intakeRequest(input)
  return request(app).post(path).set('Accept', 'application/json').send(body)
}
