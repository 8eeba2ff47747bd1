import type { S3Settings } from './s3-client.ts'
import { createS3ScreenshotStorage } from './s3-screenshot-storage.ts'
import { createDiskScreenshotStorage, type ScreenshotStorage } from './screenshot-storage.ts'

/** The screenshot store the settings name: the S3 bucket when S3_BUCKET is set, else files under DATA_DIR. */
export function createScreenshotStorage({
  dataDir,
  s3,
}: {
  dataDir: string
  s3: S3Settings | undefined
}): ScreenshotStorage {
  return s3 ? createS3ScreenshotStorage(s3) : createDiskScreenshotStorage(dataDir)
}
