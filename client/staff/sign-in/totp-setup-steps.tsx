import './two-factor.css'
import type { TwoFactorSetup } from '../../../src/api/staff-two-factor.ts'

/**
 * How to give the secret to an authenticator app: scan the QR code, or type the key. The QR code comes
 * as SVG text in the JSON answer and shows as a data: image (the CSP allows data: images, not inline SVG
 * scripts or other hosts).
 */
export function TotpSetupSteps({ setup }: { setup: TwoFactorSetup }) {
  return (
    <ol className="totp-steps">
      <li>
        Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or
        1Password).
      </li>
      <li>
        Scan this QR code with it:
        <img
          className="totp-qr"
          src={`data:image/svg+xml,${encodeURIComponent(setup.qrCode)}`}
          alt="QR code of your two-factor key, for your authenticator app"
          width={200}
          height={200}
        />
      </li>
      <li>
        Or, if you cannot scan it, type this key into the app:{' '}
        <code className="totp-key">{groupedKey(setup.secret)}</code>
      </li>
      <li>Enter the 6-digit code the app then shows.</li>
    </ol>
  )
}

/** Blocks of four, as people copy a long key. */
function groupedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret
}
