/** Staff-facing texts of two-factor sign-in, shared by the server's answers and the pages. */
export const CODE_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app.'
export const INVALID_CODE_MESSAGE =
  'That code is not right or was already used. Enter the current code from your authenticator app, or an unused recovery code.'
export const SETUP_REQUIRED_MESSAGE =
  'Your account must use two-factor sign-in. Scan the QR code with an authenticator app, then enter the 6-digit code it shows.'
export const EMAIL_CODE_SENT_MESSAGE =
  'Your account must use two-factor sign-in. To set it up, enter the 8-digit code we have just e-mailed to you.'
export const INVALID_EMAIL_CODE_MESSAGE =
  'That e-mailed code is not right or has expired. Enter the code from the newest e-mail, or send a new code.'
export const MAIL_UNAVAILABLE_MESSAGE =
  'We could not e-mail your set-up code just now. Please try again in a few minutes.'
