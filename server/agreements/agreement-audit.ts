import { translator, type Translator } from '../../src/translate.ts'

/** Who signed what, when and from where: the last part of every download of a signed agreement. */
export interface AgreementAudit {
  /** A Step 2 claim's agreement, or the one signed with the main form. */
  kind: 'claim' | 'intake'
  /** The claim's or the intake's id. */
  id: number
  /** The app's slug, or on the main form the apps chosen. */
  app: string
  /** ISO time of the signature */
  signedAt: string
  ipAddress: string
  userAgent: string
  /** SHA-256 of the signed HTML, as stored */
  sha256: string
  templateVersion: string
  /** The language the agreement was shown and signed in. */
  locale: string
  /** 'drawn' on the pad, or 'typed' (the name as typed in typedSignature). */
  signatureMethod: string
  typedSignature: string | null
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', es: 'Español' }

/**
 * The audit details as labelled lines, the same in the HTML download and the PDF, in the language of
 * the document.
 * @example auditRows(audit)[0] // ['Claim ID', '4711']
 */
export function auditRows(audit: AgreementAudit, t: Translator = translator(undefined)): [string, string][] {
  const signedAt = new Date(audit.signedAt)
  return [
    audit.kind === 'claim'
      ? [t('Claim ID'), String(audit.id)]
      : [t('Main form submission ID'), String(audit.id)],
    audit.kind === 'claim' ? [t('App'), audit.app] : [t('Apps'), audit.app],
    [t('Signed at (UTC)'), Number.isNaN(signedAt.getTime()) ? audit.signedAt : signedAt.toISOString()],
    [t('IP address'), audit.ipAddress],
    [t('User agent'), audit.userAgent],
    [t('SHA-256 of the signed HTML'), audit.sha256],
    [t('Template version'), audit.templateVersion],
    [t('Language'), LANGUAGE_NAMES[audit.locale] ?? audit.locale],
    [
      t('Signed by'),
      audit.signatureMethod === 'typed'
        ? t('typing the full name "{name}", shown in a signature style', { name: audit.typedSignature ?? '' })
        : t('drawing the signature on the screen'),
    ],
  ]
}
