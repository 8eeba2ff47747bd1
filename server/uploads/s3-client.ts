import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'

/** Where the screenshots and filing batches are kept, when S3_BUCKET is set. */
export interface S3Settings {
  bucket: string
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** bucket in the path (https://host/bucket/key), as MinIO and most self-hosted servers need. */
  forcePathStyle: boolean
}

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
