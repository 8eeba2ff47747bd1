import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { agreementTemplatesPlugin } from './server/agreements/vite-agreements-plugin.ts'

export default defineConfig({
  plugins: [react(), agreementTemplatesPlugin()],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
