import fs from 'node:fs'
import path from 'node:path'
import express, { Router } from 'express'

/** Serves the built client: hashed assets cached for a year, index.html for every page route. */
export function staticClient(clientDir: string): Router {
  const router = Router()
  const indexFile = path.join(clientDir, 'index.html')
  router.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  )
  router.use(express.static(clientDir, { index: false, maxAge: '1h' }))
  router.get(/^\/(?!api\/).*/, (_req, res, next) => {
    if (!fs.existsSync(indexFile)) {
      next(new Error(`client build missing at ${indexFile}: run "npm run build" or "npm start"`))
      return
    }
    res.set('Cache-Control', 'no-cache').sendFile(indexFile)
  })
  return router
}
