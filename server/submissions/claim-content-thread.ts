import crypto from 'node:crypto'
import { parentPort, workerData } from 'node:worker_threads'
import type { AgreementSources } from '../agreements/agreement-sources.ts'
import { compileAgreementTemplates } from '../agreements/agreement-templates.ts'
import { recordParts } from '../evidence/sealed-record.ts'
import { checkSignaturePng } from '../uploads/check-png.ts'
import { sniffImage } from '../uploads/sniff-image.ts'
import { READY, type ContentReply, type ContentRequest } from './claim-content.ts'

// The claim content thread (started by claim-content.ts): a claim's screenshot and signature checked by
// their bytes, and its agreement rendered and hashed, one claim at a time, off the server's event loop.

const port = parentPort!
const templates = compileAgreementTemplates((workerData as { sources: AgreementSources }).sources)

port.on('message', (request: ContentRequest) => {
  void answer(request).then((reply) =>
    port.postMessage(reply, [
      reply.screenshot.buffer as ArrayBuffer,
      ...('recordParts' in reply ? [reply.recordParts.before.buffer, reply.recordParts.after.buffer] : []),
    ] as ArrayBuffer[]),
  )
})
port.postMessage(READY)

async function answer({
  id,
  screenshot,
  signature,
  variant,
  locale,
  context,
  record,
}: ContentRequest): Promise<ContentReply> {
  try {
    const bytes = Buffer.from(screenshot.buffer, screenshot.byteOffset, screenshot.byteLength)
    const image = await sniffImage(bytes)
    const html = templates.render(variant, context, locale)
    const screenshotSha256 = crypto.createHash('sha256').update(bytes).digest('hex')
    return {
      id,
      screenshot,
      image,
      signature: checkSignaturePng(signature),
      html,
      sha256: crypto.createHash('sha256').update(html, 'utf8').digest('hex'),
      screenshotSha256,
      // the sealed record, but for the claim's id, with what only this thread knows
      recordParts: recordParts({
        ...record,
        agreement: { template: variant, templateVersion: templates.version, locale, html },
        screenshot: { sha256: screenshotSha256, type: image?.mime ?? '' },
      }),
    }
  } catch (error) {
    return { id, screenshot, error: error instanceof Error ? error.message : String(error) }
  }
}
