/**
 * The two-factor set-up code that accepting an invitation gives (InviteAccepted), held in this page's
 * memory only, for the sign-in that follows: that sign-in then shows the QR code without e-mailing a
 * code first. A reload forgets it, and the sign-in e-mails one as usual.
 */
let handedOver: string | undefined

export function handOverSetupCode(code: string | undefined): void {
  handedOver = code
}

/** The code, if the invitation page handed one over (read, not taken: React may draw a gate twice). */
export function handedOverSetupCode(): string | undefined {
  return handedOver
}
