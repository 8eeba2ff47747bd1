import os from 'node:os'

// The filing PDF thread (started by filing-pdfs.ts): a batch's ten thousand demands are minutes of CPU,
// which claims and dashboards must not wait behind, so the thread lowers its own priority before it
// loads anything (see agreement-pdf-thread.ts).
os.setPriority(os.constants.priority.PRIORITY_LOW)
await import('./serve-filing-pdfs.ts')
