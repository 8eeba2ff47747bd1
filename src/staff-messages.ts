/** Staff-facing texts, verbatim from the product spec where it has them. */
export const INVALID_PASSWORD_MESSAGE = 'Invalid email or password. Please try again.'
export const LOGIN_RATE_LIMITED_MESSAGE = 'Too many login attempts. Please wait 15 minutes and try again.'
