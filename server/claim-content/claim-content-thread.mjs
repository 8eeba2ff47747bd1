// Starts claim-content-thread.ts in its worker thread (see claim-content.ts). A worker does not inherit the
// TypeScript loader of the thread that made it, so it registers tsx's own first: the same file then loads
// under `tsx`, `node --import tsx` and vitest.
import { register } from 'tsx/esm/api'

register()
await import('./claim-content-thread.ts')
