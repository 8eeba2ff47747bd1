import { defineConfig } from 'vitest/config'

// Browser tests: one server (SQLite, fresh DATA_DIR) for the run, Chromium driven by playwright-core
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
