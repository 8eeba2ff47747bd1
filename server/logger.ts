import { pino, type Logger } from 'pino'

export type { Logger }

/** Structured JSON logs. Request bodies are never logged: they carry claimants' personal data. */
export function createLogger(level = 'info'): Logger {
  return pino({ level, base: undefined, redact: ['req.headers.cookie', 'req.headers.authorization'] })
}
