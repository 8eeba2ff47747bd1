import crypto from 'node:crypto'
import { workerData } from 'node:worker_threads'
import type { AgreementSources } from '../agreements/agreement-sources.ts'
import { compileAgreementTemplates } from '../agreements/agreement-templates.ts'
import { ownUtf8, recordParts } from '../evidence/sealed-record.ts'
import { serveRequests, type Answer } from '../threads/serve-requests.ts'
import { checkSignaturePng } from '../uploads/check-png.ts'
import { sniffImage } from '../uploads/sniff-image.ts'
import type { ContentReply, ContentRequest } from './claim-content.ts'

// The content thread (started by claim-content.ts): a claim's screenshot and signature checked by their
// bytes, and its agreement rendered and hashed; an intake's signature and agreement the same way. One at
// a time, off the server's event loop. A cure's new screenshot and signature are checked here too.

const templates = compileAgreementTemplates((workerData as { sources: AgreementSources }).sources)

serveRequests<ContentRequest, ContentReply>(async (request) => {
  if (request.kind === 'cure') return checkCure(request)
  const signature = checkSignaturePng(request.signature)
  const html = templates.render(request.variant, request.context, request.locale)
  const htmlUtf8 = ownUtf8(html)
  const sha256 = crypto.createHash('sha256').update(htmlUtf8).digest('hex')
  if (request.kind === 'intake') return { reply: { signature, html, sha256 } }
  const { screenshot, variant, locale, record } = request
  const bytes = Buffer.from(screenshot.buffer, screenshot.byteOffset, screenshot.byteLength)
  const image = await sniffImage(bytes)
  const screenshotSha256 = crypto.createHash('sha256').update(bytes).digest('hex')
  // the sealed record, but for the claim's id, with what only this thread knows
  const parts = recordParts({
    ...record,
    agreement: { template: variant, templateVersion: templates.version, locale, html },
    screenshot: { sha256: screenshotSha256, type: image?.mime ?? '' },
  })
  return {
    // the claim's HTML goes back as its UTF-8 bytes, moved, not as a string for the event loop to copy,
    // keep alive until the commit and convert again for SQLite
    reply: { screenshot, image, signature, htmlUtf8, sha256, screenshotSha256, recordParts: parts },
    transfer: [screenshot.buffer, htmlUtf8.buffer, parts.before.buffer, parts.after.buffer] as ArrayBuffer[],
  } satisfies Answer<ContentReply>
})

async function checkCure({
  screenshot,
  signature,
}: Extract<ContentRequest, { kind: 'cure' }>): Promise<Answer<ContentReply>> {
  const checked = signature === undefined ? undefined : checkSignaturePng(signature)
  if (!screenshot) {
    return {
      reply: { screenshot: undefined, image: undefined, screenshotSha256: undefined, signature: checked },
    }
  }
  const bytes = Buffer.from(screenshot.buffer, screenshot.byteOffset, screenshot.byteLength)
  const image = await sniffImage(bytes)
  const screenshotSha256 = crypto.createHash('sha256').update(bytes).digest('hex')
  return {
    reply: { screenshot, image, screenshotSha256, signature: checked },
    transfer: [screenshot.buffer as ArrayBuffer],
  }
}
