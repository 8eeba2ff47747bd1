import Handlebars from 'handlebars'
import type { AgreementAudit } from './agreement-pdf.ts'

const STYLE = `
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #111; line-height: 1.5; }
h2 { font-size: 1.5rem; } h3 { font-size: 1.1rem; margin-top: 1.5rem; }
.signature-block { margin-top: 1.5rem; padding-top: 1rem; border-top: 1px solid #999; }
.signature-image { max-width: 18rem; max-height: 8rem; display: block; }
.blank { letter-spacing: 0.1em; }
.audit { margin-top: 3rem; padding-top: 1rem; border-top: 2px solid #333; font-family: monospace; font-size: 0.85rem; word-break: break-all; }
`

/**
 * The downloadable agreement: a self-contained HTML document whose body holds the stored signed HTML
 * byte for byte (signature inline), followed by the audit details.
 */
export function agreementDocument({
  title,
  html,
  audit,
}: {
  title: string
  html: string
  audit: AgreementAudit
}): string {
  const escape = Handlebars.escapeExpression
  const rows: [string, string][] = [
    ['Claim ID', String(audit.claimId)],
    ['App', audit.app],
    ['Signed at (UTC)', audit.signedAt],
    ['IP address', audit.ipAddress],
    ['User agent', audit.userAgent],
    ['SHA-256 of the signed agreement', audit.sha256],
    ['Template version', audit.templateVersion],
  ]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${html}
</main>
<section class="audit">
<h3>Audit Details</h3>
${rows.map(([label, value]) => `<p><strong>${escape(label)}:</strong> ${escape(value)}</p>`).join('\n')}
</section>
</body>
</html>
`
}

/**
 * A file name from the claimant's name, safe in any file system and header.
 * @example agreementFileName({ firstName: 'Ana María', lastName: "O'Neil" }, 'pdf') // 'Ana-Mar-a-O-Neil-agreement.pdf'
 */
export function agreementFileName(
  { firstName, lastName }: { firstName: string; lastName: string },
  ext: string,
): string {
  const safe = `${firstName} ${lastName}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'signed'
  return `${safe}-agreement.${ext}`
}
