import { pino, type DestinationStream, type Logger } from 'pino'

export type { Logger }

/** Structured JSON logs. Request bodies are never logged: they carry claimants' personal data. */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, base: undefined, redact: ['req.headers.cookie', 'req.headers.authorization'] }
  return destination ? pino(options, destination) : pino(options)
}

/** What a failure may log: its code, never its text (which can quote an address or a name). */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown'
}
