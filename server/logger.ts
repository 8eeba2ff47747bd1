import { pino, type DestinationStream, type Logger } from 'pino'

export type { Logger }

/** Structured JSON logs. Request bodies are never logged: they carry claimants' personal data. */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, base: undefined, redact: ['req.headers.cookie', 'req.headers.authorization'] }
  return destination ? pino(options, destination) : pino(options)
}
