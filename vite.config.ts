import path from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { agreementTemplatesPlugin } from './server/agreements/vite-agreements-plugin.ts'

const LAZY_MARKDOWN = path.resolve(import.meta.dirname, 'client/ui/lazy-markdown.tsx')

/** Points RJSF's `markdown-to-jsx/react` import at client/ui/lazy-markdown.tsx, which loads it on demand. */
function lazyMarkdownPlugin(): Plugin {
  return {
    name: 'lazy-markdown',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'markdown-to-jsx/react' || importer === LAZY_MARKDOWN) return undefined
      return LAZY_MARKDOWN
    },
  }
}

export default defineConfig({
  plugins: [react(), agreementTemplatesPlugin(), lazyMarkdownPlugin()],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
