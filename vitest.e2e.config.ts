import { defineConfig } from 'vitest/config'

// Browser tests: one server (SQLite, fresh DATA_DIR) for the run, Chromium driven by playwright-core
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    fileParallelism: false,
    // the spec files run one after another in one process that imports playwright-core, the server's
    // modules and the helpers once, rather than once per file; no spec mocks modules or changes globals
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // for the servers and staff accounts a spec makes itself; global-setup.ts sets it for the shared server
    env: { PASSWORD_HASH_COST: '10' },
  },
})
