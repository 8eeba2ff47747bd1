import { defineConfig } from 'vitest/config'

// Unit and server tests; the browser tests in tests/e2e have their own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/server/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'tests/e2e/**'],
    environment: 'node',
    globalSetup: ['tests/server/global-setup.ts'],
    // scrypt at the product's N=2^17 costs about a second a sign-in here, and the suite signs in hundreds
    // of times; the servers the tests spawn inherit this too. The tests of the cost itself, of rehashing
    // and of a flood of hashes set the product's default again in their own files.
    env: { PASSWORD_HASH_COST: '10' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
