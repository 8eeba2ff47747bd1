import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import type { S3Settings } from '../config.ts'

/**
 * A client of the S3_* settings' bucket with the time limits its caller needs: the screenshots' are
 * seconds, a batch ZIP's upload may take minutes.
 */
export function s3ClientOf(
  settings: S3Settings,
  {
    connectionTimeoutMs,
    requestTimeoutMs,
    socketTimeoutMs,
    ...rest
  }: { connectionTimeoutMs: number; requestTimeoutMs: number; socketTimeoutMs: number } & Pick<
    S3ClientConfig,
    'maxAttempts' | 'requestChecksumCalculation'
  >,
): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // the keys from the settings, never the machine's AWS profile or instance role by surprise
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    ...rest,
    requestHandler: {
      connectionTimeout: connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // without it an overdue request only logs a warning and goes on waiting
      throwOnRequestTimeout: true,
      // a body that stops arriving half-way fails instead of hanging
      socketTimeout: socketTimeoutMs,
    },
  })
}
