// The validator modules' minifier thread (started by validator-modules.ts). Vite, its minifier and their
// source (about 20 MB of strings and code) load here and go when the thread ends; loaded on the server's
// own thread they stayed for its whole life, and every major garbage collection marked them again.
// Plain JavaScript, so that it loads the same under `node --import tsx`, vitest and plain node.
import { parentPort, workerData } from 'node:worker_threads'
import { minify } from 'vite'

const results = []
for (const code of workerData.modules) {
  const minified = await minify('validator.js', code, {
    module: true,
    compress: true,
    mangle: { toplevel: true },
  })
  results.push(minified.errors.length > 0 ? { error: minified.errors[0].message } : { code: minified.code })
}
parentPort.postMessage(results)
