/** Staff-facing texts of two-factor sign-in, shared by the server's answers and the pages. */
export const CODE_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app.'
export const INVALID_CODE_MESSAGE =
  'That code is not right or was already used. Enter the current code from your authenticator app, or an unused recovery code.'
export const SETUP_REQUIRED_MESSAGE =
  'Your account must use two-factor sign-in. Scan the QR code with an authenticator app, then enter the 6-digit code it shows.'
