import os from 'node:os'

// The hashing thread (started by screenshot-hasher.ts). A duplicate can be flagged a minute later; a
// claim in a surge cannot wait: the thread lowers its own priority before it loads anything, so the
// claims' threads get the cores first. On Linux a nice value belongs to the thread that sets it.
os.setPriority(os.constants.priority.PRIORITY_LOW)
await import('./serve-screenshot-hashes.ts')
