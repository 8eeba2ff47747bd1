// Starts filing-pdf-thread.ts in its worker thread (see request-thread.ts threadEntry): a worker does not
// inherit the TypeScript loader of the thread that made it, so it registers tsx's own first.
import { register } from 'tsx/esm/api'

register()
await import('./filing-pdf-thread.ts')
