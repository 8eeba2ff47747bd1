import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { attachmentOf } from '../../tests/server/support/eml-attachment.ts'
import { type AgreementMail, createAgreementMailer } from './agreement-mailer.ts'

const FROM = 'Claims Desk <claims@example.com>'
const AGREEMENT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Agreement</title></head>
<body><main><p>Zoë &amp; Ana Lopez agree — “fees” are 25% ✓ 😀</p>
<p>${'A long line of agreement text that goes well past the 76 characters a MIME line holds. '.repeat(5)}</p>
</main></body></html>
`

const LINK = 'https://claims.example-firm.com/view-agreement#link=' + 'A'.repeat(43)

const AGREEMENT_PDF = Buffer.from('%PDF-1.7\n% the sealed agreement\n%%EOF\n', 'latin1')

function makeMail(overrides: Partial<AgreementMail> = {}): AgreementMail {
  return {
    to: 'ana.lopez@example.com',
    claimantName: 'Ana Lopez',
    appName: 'Brigit',
    html: AGREEMENT_HTML,
    filename: 'Ana-Lopez-agreement.html',
    pdf: { filename: 'Ana-Lopez-agreement.pdf', content: AGREEMENT_PDF },
    ...overrides,
  }
}

/** A pino logger whose JSON lines land in `lines`. */
function makeLogger() {
  const lines: string[] = []
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(line) })
  return { logger, lines }
}

const madeDirs: string[] = []

function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agreement-mailer-'))
  madeDirs.push(dir)
  return dir
}

const servers: net.Server[] = []

/** A local SMTP server that rejects every recipient, quoting the address and name as real servers do. */
async function startRejectingSmtpServer(): Promise<number> {
  const server = net.createServer((socket) => {
    socket.write('220 localhost ESMTP test\r\n')
    let buffered = ''
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1')
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        const command = line.slice(0, 4).toUpperCase()
        if (command === 'EHLO' || command === 'HELO') socket.write('250 localhost\r\n')
        else if (command === 'RCPT') {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? ''
          socket.write(`550 5.1.1 <${address}>: Recipient address rejected: Ana Lopez unknown\r\n`)
        } else if (command === 'QUIT') socket.end('221 bye\r\n')
        else socket.write('250 OK\r\n')
      }
    })
    socket.on('error', () => {})
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as net.AddressInfo).port
}

afterEach(async () => {
  for (const dir of madeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

describe('createAgreementMailer', () => {
  it('writes one .eml to {dataDir}/outbox when no SMTP URL is set', async () => {
    const dataDir = makeDataDir()
    const { logger, lines } = makeLogger()
    const sent = await createAgreementMailer({ smtpUrl: undefined, dataDir, from: FROM, logger }).send(
      makeMail(),
    )

    expect(sent).toBe(true)
    const files = fs.readdirSync(path.join(dataDir, 'outbox'))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\d{13}-[0-9a-f]{16}\.eml$/)
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', files[0] ?? ''), 'utf8')
    expect(eml).not.toContain('\r\n')
    expect(eml).toMatch(/^To: ana\.lopez@example\.com$/m)
    expect(eml).toMatch(/^From: Claims Desk <claims@example\.com>$/m)
    expect(eml).toMatch(/^Subject: Your signed Brigit agreement$/m)
    expect(eml).toContain('Hello Ana Lopez,')
    expect(lines).toEqual([])
  })

  it('attaches the agreement as text/html and as its sealed PDF, under their file names, byte for byte', async () => {
    const dataDir = makeDataDir()
    const { logger } = makeLogger()
    await createAgreementMailer({ smtpUrl: undefined, dataDir, from: FROM, logger }).send(makeMail())

    const [file = ''] = fs.readdirSync(path.join(dataDir, 'outbox'))
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8')
    expect(attachmentOf(eml, 'Ana-Lopez-agreement.html').toString('utf8')).toBe(AGREEMENT_HTML)
    expect(attachmentOf(eml, 'Ana-Lopez-agreement.pdf', 'application/pdf').equals(AGREEMENT_PDF)).toBe(true)
  })

  it("writes the firm's message in HTML and plain text, and keeps an accented file name (RFC 2231) beside its ASCII fallback", async () => {
    const dataDir = makeDataDir()
    const { logger } = makeLogger()
    await createAgreementMailer({ smtpUrl: undefined, dataDir, from: FROM, logger }).send(
      makeMail({ pdf: { filename: 'José-Peña-agreement.pdf', content: AGREEMENT_PDF } }),
    )
    const [file = ''] = fs.readdirSync(path.join(dataDir, 'outbox'))
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8')
    expect(eml).toMatch(/^Content-Type: multipart\/alternative;/m)
    expect(eml).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m)
    expect(eml).toMatch(/^Content-Type: text\/html; charset=utf-8$/m)
    // the firm's postal address in the foot, in both parts (quoted-printable's soft breaks undone)
    expect(
      eml.replace(/=\n/g, '').match(/100 Example Plaza, Suite 400, Los Angeles, CA 90012/g)?.length,
    ).toBe(2)
    expect(eml).toContain(
      `filename="Jose-Pena-agreement.pdf";\n filename*=UTF-8''Jos%C3%A9-Pe%C3%B1a-agreement.pdf`,
    )
  })

  it('escapes the name in the HTML body', async () => {
    const dataDir = makeDataDir()
    const { logger } = makeLogger()
    const mailer = createAgreementMailer({ smtpUrl: undefined, dataDir, from: FROM, logger })
    await mailer.send(makeMail({ claimantName: '<b>Ana</b>' }))

    const [file = ''] = fs.readdirSync(path.join(dataDir, 'outbox'))
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8')
    expect(eml).not.toContain('<b>Ana</b>,</p>')
    expect(eml).toContain('&#60;b&#62;Ana&#60;/b&#62;')
  })

  it('resolves and logs a warning without personal data when the SMTP server cannot be reached', async () => {
    const { logger, lines } = makeLogger()
    const mailer = createAgreementMailer({
      smtpUrl: 'smtp://127.0.0.1:1?connectionTimeout=2000',
      dataDir: makeDataDir(),
      from: FROM,
      logger,
    })
    await expect(mailer.send(makeMail())).resolves.toBe(false)

    expect(lines).toHaveLength(1)
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(entry).toMatchObject({ level: 40, app: 'Brigit', msg: 'agreement e-mail not sent' })
    expect(entry.err).toMatch(/ECONNREFUSED|connect/i)
    expect(lines[0]).not.toMatch(/@|Ana|Lopez|agreement\.html/)
  })

  it('keeps the address and name out of the log when the server quotes them in its refusal', async () => {
    const port = await startRejectingSmtpServer()
    const { logger, lines } = makeLogger()
    const mailer = createAgreementMailer({
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      dataDir: makeDataDir(),
      from: FROM,
      logger,
    })
    await expect(mailer.send(makeMail())).resolves.toBe(false)

    expect(lines).toHaveLength(1)
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>
    expect(entry.err).toMatch(/Recipient address rejected/)
    expect(entry.err).toContain('[redacted]')
    expect(lines[0]).not.toMatch(/@|Ana|Lopez/i)
  })

  it('resolves and logs a warning when the outbox cannot be written', async () => {
    const dataDir = makeDataDir()
    fs.writeFileSync(path.join(dataDir, 'outbox'), 'a file where the folder should be')
    const { logger, lines } = makeLogger()
    const mailer = createAgreementMailer({ smtpUrl: undefined, dataDir, from: FROM, logger })
    await expect(mailer.send(makeMail())).resolves.toBe(false)

    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, app: 'Brigit' })
    expect(lines[0]).not.toMatch(/@|Ana|Lopez/)
  })

  it('writes a one-time link as its own message, with no attachment', async () => {
    const dataDir = makeDataDir()
    const mailer = createAgreementMailer({
      smtpUrl: undefined,
      dataDir,
      from: FROM,
      logger: makeLogger().logger,
    })
    await expect(
      mailer.sendLink({ to: 'ana.lopez@example.com', claimantName: 'Ana Lopez', url: LINK, minutes: 30 }),
    ).resolves.toBe(true)

    const [name] = fs.readdirSync(path.join(dataDir, 'outbox'))
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', name!), 'utf8')
    expect(eml).toMatch(/^To: ana\.lopez@example\.com$/m)
    expect(eml).toMatch(/^Subject: Your link to view your signed agreements$/m)
    expect(eml).not.toMatch(/filename=/)
  })

  it('keeps the link, the address and the name out of the log when a link is refused', async () => {
    const port = await startRejectingSmtpServer()
    const { logger, lines } = makeLogger()
    const mailer = createAgreementMailer({
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      dataDir: makeDataDir(),
      from: FROM,
      logger,
    })
    await expect(
      mailer.sendLink({ to: 'ana.lopez@example.com', claimantName: 'Ana Lopez', url: LINK, minutes: 30 }),
    ).resolves.toBe(false)

    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, msg: 'agreement link e-mail not sent' })
    expect(lines[0]).not.toMatch(/@|Ana|Lopez|link=/i)
  })
})
