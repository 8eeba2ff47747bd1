import { defineConfig } from 'vitest/config'

// Unit and server tests; the browser tests in tests/e2e have their own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'client/**/*.test.ts', 'tests/server/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'tests/e2e/**'],
    environment: 'node',
    globalSetup: ['tests/server/support/global-setup.ts'],
    // scrypt at the product's N=2^17 costs about a second a sign-in here, and the suite signs in hundreds
    // of times; the servers the tests spawn inherit this too. The tests of the cost itself and of rehashing
    // set the product's N again in their own file, the flood of sign-ins one slow enough to fill the queue.
    env: { PASSWORD_HASH_COST: '10' },
    // vitest's default is one file at a time on a 2-core machine (cores - 1); the files spend much of
    // their time waiting on PostgreSQL, spawned servers and worker threads, so two run at once
    maxWorkers: 2,
    // a worker imports the server's modules once for all its files rather than once a file (over a third
    // of the suite's time went to imports); no file mocks a module, and the two that set an environment
    // variable unset it after themselves
    isolate: false,
    // a limit for a test that hangs, not a measure: a busy machine runs a process-spawning test slowly
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
