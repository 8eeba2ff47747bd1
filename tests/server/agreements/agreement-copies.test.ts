import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAgreementCopies, type AgreementCopies } from '../../../server/agreements/agreement-copies.ts'
import { createAgreementMailer } from '../../../server/agreements/agreement-mailer.ts'
import { createLogger } from '../../../server/logger.ts'
import { removeSealed } from '../../../server/ops/purge-expired.ts'
import { clearClaims, createTestContext, DIALECTS, makePng, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { checkSeal } from '../support/check-pdf-seal.ts'
import { attachmentOf } from '../support/eml-attachment.ts'
import { pdfText } from '../support/pdf-text.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
// nothing listens on port 1: every send fails at once with ECONNREFUSED, as with a mail server that is down
const DOWN_SMTP = 'smtp://127.0.0.1:1'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the claimants' e-mail copies`, () => {
    let ctx: TestContext
    const senders: AgreementCopies[] = []

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      // each test runs its own senders, like server processes started and stopped
      await ctx.agreementCopies.stop()
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await Promise.all(senders.splice(0).map((sender) => sender.stop()))
      await clearClaims(ctx)
    })

    function sender(smtpUrl?: string): AgreementCopies {
      const logger = createLogger('silent')
      const mailer = createAgreementMailer({
        smtpUrl,
        dataDir: ctx.dataDir,
        from: 'claims@example.com',
        logger,
      })
      const copies = createAgreementCopies({
        db: ctx.db,
        mailer,
        forms: ctx.forms,
        agreementPdfs: ctx.agreementPdfs,
        logger,
      })
      senders.push(copies)
      return copies
    }

    async function fileClaims(count: number): Promise<number[]> {
      const ids: number[] = []
      for (let i = 0; i < count; i++) {
        const fields = { email: `copy${i}@example.com`, phoneNumber: `(212) 555-${String(1000 + i)}` }
        ids.push((await fileClaim(ctx, { app: 'brigit', fields, screenshot: SCREENSHOT })).id)
      }
      return ids
    }

    function outbox(): string[] {
      const dir = path.join(ctx.dataDir, 'outbox')
      if (!fs.existsSync(dir)) return []
      return fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.eml'))
        .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    }

    async function copies() {
      return ctx.db.selectFrom('agreement_copies').selectAll().orderBy('claim_id').execute()
    }

    it('queues one copy with each claim, and sends it to the claimant once', async () => {
      const [id] = await fileClaims(1)
      expect(await copies()).toMatchObject([{ claim_id: id, attempts: 0, sent_at: null }])

      const copy = sender()
      copy.wake()
      await copy.settled()

      expect(outbox()).toHaveLength(1)
      expect(outbox()[0]).toMatch(/^To: copy0@example\.com$/m)
      // the agreement as HTML, and as a PDF sealed with the firm's certificate
      const eml = outbox()[0]!
      const pdfName = /filename="([^"]+\.pdf)"/.exec(eml)?.[1] ?? 'no PDF attached'
      const pdf = attachmentOf(eml, pdfName, 'application/pdf')
      expect(checkSeal(pdf)).toBe('valid')
      expect(await pdfText(pdf)).toContain(`Audit Details Claim ID ${id} App brigit`)
      expect(attachmentOf(eml, pdfName.replace(/\.pdf$/, '.html')).toString('utf8')).toContain('</html>')
      const [row] = await copies()
      expect(row).toMatchObject({ claim_id: id, attempts: 1 })
      expect(Number(row!.sent_at)).toBeGreaterThan(0)
    })

    it('sends copies made together each whole, to its own claimant, with a sealed PDF of its own agreement', async () => {
      const ids = await fileClaims(5)
      const copy = sender()
      copy.wake()
      await copy.settled()

      const emls = outbox()
      expect(emls).toHaveLength(5)
      const byClaimant = new Map(emls.map((eml) => [/^To: (.+)$/m.exec(eml)![1], eml]))
      for (const [i, id] of ids.entries()) {
        const eml = byClaimant.get(`copy${i}@example.com`)
        expect(eml, `copy${i}@example.com's copy`).toBeDefined()
        const pdfName = /filename="([^"]+\.pdf)"/.exec(eml!)?.[1] ?? 'no PDF attached'
        const pdf = attachmentOf(eml!, pdfName, 'application/pdf')
        expect(checkSeal(pdf)).toBe('valid')
        expect(await pdfText(pdf)).toContain(`Audit Details Claim ID ${id} App brigit`)
        const html = attachmentOf(eml!, pdfName.replace(/\.pdf$/, '.html')).toString('utf8')
        expect(html).toContain(`copy${i}@example.com`)
        expect(html).toContain('</html>')
      }
      expect((await copies()).every((row) => row.attempts === 1 && row.sent_at !== null)).toBe(true)
    })

    it('sends the claimant of albert, whose agreement has no text, what they signed: the consent and the signature', async () => {
      const created = await fileClaim(ctx, {
        app: 'albert',
        fields: { email: 'albert@example.com' },
        screenshot: SCREENSHOT,
      })
      const copy = sender()
      copy.wake()
      await copy.settled()

      expect(outbox()).toHaveLength(1)
      const eml = outbox()[0]!
      expect(eml).toMatch(/^To: albert@example\.com$/m)
      const pdfName = /filename="([^"]+\.pdf)"/.exec(eml)?.[1] ?? 'no PDF attached'
      const html = attachmentOf(eml, pdfName.replace(/\.pdf$/, '.html')).toString('utf8')
      expect(html).toContain(ctx.forms.get('albert')!.agreement.consent)
      expect(html).toContain('<img class="signature-image" src="data:image/png;base64,')
      const pdf = attachmentOf(eml, pdfName, 'application/pdf')
      expect(checkSeal(pdf)).toBe('valid')
      expect(await pdfText(pdf)).toContain(`Claim ID ${created.id} App albert`)
    })

    it('keeps a copy the mail server refused, and sends it when it comes due again', async () => {
      await fileClaims(1)
      const down = sender(DOWN_SMTP)
      const before = Date.now()
      down.wake()
      await down.settled()

      const [failed] = await copies()
      expect(failed).toMatchObject({ attempts: 1, sent_at: null })
      // the first retry is a minute later
      expect(Number(failed!.due_at)).toBeGreaterThanOrEqual(before + 60_000)
      expect(outbox()).toHaveLength(0)

      await down.stop()
      await ctx.db.updateTable('agreement_copies').set({ due_at: Date.now() }).execute()
      const back = sender()
      back.wake()
      await back.settled()

      expect(outbox()).toHaveLength(1)
      expect(await copies()).toMatchObject([{ attempts: 2 }])
      expect((await copies())[0]!.sent_at).not.toBeNull()
    })

    it('sends, after a restart, the copies queued before it', async () => {
      await fileClaims(3)
      expect(outbox()).toHaveLength(0)

      const restarted = sender()
      restarted.wake()
      await restarted.settled()

      expect(outbox()).toHaveLength(3)
      expect((await copies()).every((copy) => copy.sent_at !== null)).toBe(true)
    })

    it('sends each copy once when two server processes share the queue', async () => {
      await fileClaims(12)
      const [one, two] = [sender(), sender()]
      one.wake()
      two.wake()
      await Promise.all([one.settled(), two.settled()])

      const recipients = outbox().map((eml) => /^To: (.+)$/m.exec(eml)![1])
      expect(recipients).toHaveLength(12)
      expect(new Set(recipients).size).toBe(12)
      expect((await copies()).every((copy) => copy.attempts === 1 && copy.sent_at !== null)).toBe(true)
    })

    it('drops the queued copy with its claim when the claim is purged', async () => {
      const [id] = await fileClaims(1)
      await ctx.db
        .transaction()
        .execute((trx) => removeSealed(trx, ctx.evidenceKey, { kind: 'claim', ids: [id!], detail: {} }))
      expect(await copies()).toEqual([])
    })
  })
}
