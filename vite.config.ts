import path from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { agreementTemplatesPlugin } from './server/agreements/vite-agreements-plugin.ts'

const LAZY_MARKDOWN = path.resolve(import.meta.dirname, 'client/ui/lazy-markdown.tsx')
const RJSF_STAND_INS = path.resolve(import.meta.dirname, 'client/forms/rjsf')

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

/** A module RJSF imports, the importer that names it (the end of its path), and what it gets instead. */
export const RJSF_REPLACEMENTS = [
  // its fields, templates and widgets, with those no form of ours draws as it opens fetched on first use
  {
    source: './components/fields/index.js',
    importer: '/node_modules/@rjsf/core/lib/getDefaultRegistry.js',
    file: 'fields.tsx',
  },
  {
    source: './components/templates/index.js',
    importer: '/node_modules/@rjsf/core/lib/getDefaultRegistry.js',
    file: 'templates.tsx',
  },
  {
    source: './components/widgets/index.js',
    importer: '/node_modules/@rjsf/core/lib/getDefaultRegistry.js',
    file: 'widgets.tsx',
  },
  // the allOf merge, fetched by a form whose schema needs it
  {
    source: './shallowAllOfMerge.js',
    importer: '/node_modules/@rjsf/utils/lib/schema/retrieveSchema.js',
    file: 'shallow-all-of-merge.ts',
  },
  {
    source: './shallowAllOfMerge.js',
    importer: '/node_modules/@rjsf/utils/lib/schema/omitExtraData.js',
    file: 'shallow-all-of-merge.ts',
  },
  // a URI parser used only for draft 2020-12 schemas, which the server refuses
  {
    source: 'fast-uri',
    importer: '/node_modules/@rjsf/utils/lib/findSchemaDefinition.js',
    file: 'fast-uri.ts',
  },
]

/**
 * Gives RJSF client/forms/rjsf/'s stand-ins for parts of it a claimant's page never or rarely needs,
 * which would otherwise be a third of the form's code (each file says what it stands in for).
 */
function rjsfStandInsPlugin(): Plugin {
  return {
    name: 'rjsf-stand-ins',
    enforce: 'pre',
    resolveId(source, importer) {
      const replacement = RJSF_REPLACEMENTS.find(
        (entry) => entry.source === source && importer?.endsWith(entry.importer),
      )
      return replacement ? path.join(RJSF_STAND_INS, replacement.file) : undefined
    },
  }
}

export default defineConfig({
  plugins: [react(), agreementTemplatesPlugin(), lazyMarkdownPlugin(), rjsfStandInsPlugin()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // every module the entry imports statically goes in the entry's own chunk: left alone, Rolldown
    // gives each one a lazy part shares too (React, the fetch wrapper, …) a chunk of its own, which
    // every page fetches all the same, for about 2 KB gzipped more a page in imports and wrappers
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
