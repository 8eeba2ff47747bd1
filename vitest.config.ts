import { defineConfig } from 'vitest/config'

// Unit and server tests; the browser tests in tests/e2e have their own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/server/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'tests/e2e/**'],
    environment: 'node',
    globalSetup: ['tests/server/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
