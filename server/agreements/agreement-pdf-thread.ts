import os from 'node:os'

// The PDF thread (started by agreement-pdfs.ts). A PDF can wait a few seconds; a claim in a surge
// cannot: the thread lowers its own priority before it loads anything (pdfkit, the fonts, the
// certificate), so the claims' threads get the cores first. On Linux a nice value belongs to the
// thread that sets it: the server's other threads keep theirs.
os.setPriority(os.constants.priority.PRIORITY_LOW)
await import('./serve-agreement-pdfs.ts')
