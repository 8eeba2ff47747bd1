import Handlebars from 'handlebars'
import { translator, type Translator } from '../../src/translate.ts'
import { auditRows, type AgreementAudit } from './agreement-audit.ts'

const STYLE = `
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5; }
h2 { font-size: 1.5rem; } h3 { font-size: 1.1rem; margin-top: 1.5rem; }
.signature-block { margin-top: 1.5rem; padding-top: 1rem; border-top: 1px solid #999; }
.signature-image { max-width: 18rem; max-height: 8rem; display: block; }
.blank { letter-spacing: 0.1em; }
.audit { margin-top: 3rem; padding-top: 1rem; border-top: 2px solid #333; font-family: monospace; font-size: 0.85rem; word-break: break-all; }
`

// a downloaded file opens from disk with no server to send a CSP: it carries its own, which runs no
// script at all, so even text a template failed to escape could not execute
const DOCUMENT_POLICY =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

/**
 * The downloadable agreement: a self-contained HTML document whose body holds the stored signed HTML
 * byte for byte (signature inline), followed by the audit details.
 */
export function agreementDocument({
  title,
  html,
  audit,
  t = translator(undefined),
}: {
  title: string
  html: string
  audit: AgreementAudit
  /** The document's own labels in its language (audit.locale). */
  t?: Translator
}): string {
  const escape = Handlebars.escapeExpression
  const rows = auditRows(audit, t)
  return `<!doctype html>
<html lang="${escape(audit.locale)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${DOCUMENT_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${html}
</main>
<section class="audit">
<h3>${escape(t('Audit Details'))}</h3>
${rows.map(([label, value]) => `<p><strong>${escape(label)}:</strong> ${escape(value)}</p>`).join('\n')}
</section>
</body>
</html>
`
}

/**
 * A file name from the claimant's name, in their letters (any script, accents kept) and digits, anything
 * else a dash: no separator, quote or control character reaches a file system or a header. Headers carry
 * it through content-disposition.ts, with an ASCII fallback.
 * @example agreementFileName({ firstName: 'Ana María', lastName: "O'Neil" }, 'pdf') // 'Ana-María-O-Neil-agreement.pdf'
 */
export function agreementFileName(
  { firstName, lastName }: { firstName: string; lastName: string },
  ext: string,
): string {
  const safe =
    `${firstName} ${lastName}`
      .normalize('NFC')
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'signed'
  return `${safe}-agreement.${ext}`
}

/** A signed agreement as stored: a Step 2 claim's record, or the one kept with a main-form intake. */
export interface SignedRecord extends AgreementAudit {
  /** The app's name, or the apps chosen on the main form, in the record's language. */
  appName: string
  firstName: string
  lastName: string
  html: string
  /** The consent statement and the signature, shown when the agreement itself has no text. */
  consentText: string
  signature: string
}

/**
 * The signed agreement as the claimant downloads it and receives it by e-mail: the document, its
 * title and its file name, in the language it was signed in (t translates into it).
 */
export function signedAgreementDocument(
  record: SignedRecord,
  t: Translator = translator(undefined),
): {
  title: string
  audit: AgreementAudit
  /** What was signed: the stored HTML, or when the app's agreement has no text, the consent and signature. */
  html: string
  document: string
  fileName: (ext: string) => string
} {
  const title = t('{app} Attorney-Client Contingency Fee Agreement - {name}', {
    app: record.appName,
    name: `${record.firstName} ${record.lastName}`,
  })
  const audit: AgreementAudit = {
    kind: record.kind,
    id: record.id,
    app: record.app,
    signedAt: record.signedAt,
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    sha256: record.sha256,
    templateVersion: record.templateVersion,
    locale: record.locale,
    signatureMethod: record.signatureMethod,
    typedSignature: record.typedSignature,
  }
  const html = record.html.trim() !== '' ? record.html : consentAndSignature(record, t)
  return {
    title,
    audit,
    html,
    document: agreementDocument({ title, html, audit, t }),
    fileName: (ext) => agreementFileName(record, ext),
  }
}

/**
 * What an app whose agreement has no text (albert's "none") had the claimant sign: the consent
 * statement above the submit button and the signature, both as stored and sealed.
 */
function consentAndSignature(record: SignedRecord, t: Translator): string {
  const escape = Handlebars.escapeExpression
  // base64 has no character HTML would read: the data URL goes in as stored, as the templates put it
  const image = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/.test(record.signature)
    ? `<img class="signature-image" src="${record.signature}" alt="${escape(t('Signature'))}">`
    : ''
  return `<h2>${escape(record.appName)}</h2>
<p>${escape(record.consentText)}</p>
<div class="signature-block">
<p><strong>${escape(t('Signature'))}:</strong></p>
${image}
<p>${escape(`${record.firstName} ${record.lastName}`)}</p>
</div>`
}
