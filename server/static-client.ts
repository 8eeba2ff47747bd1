import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import express, { Router, type RequestHandler } from 'express'
import { pageAnswer } from './page-routes.ts'

/** What the not-found page's HTML tells the client, which cannot read its own response status. */
const NOT_FOUND_MARK = '<meta name="page-status" content="404">'

/**
 * Serves the built client: hashed assets cached for a year, index.html for every page of the site
 * (200), a redirect for a page asked in other letter case, and index.html marked not-found (404) for
 * any other address, so the client shows "Page not found" without asking the API about it.
 */
export function staticClient(clientDir: string, { slugs }: { slugs: ReadonlySet<string> }): Router {
  const router = Router({ caseSensitive: true })
  const indexFile = path.join(clientDir, 'index.html')
  const assetsDir = path.join(clientDir, 'assets')
  router.use('/assets', gzippedAssets(assetsDir))
  router.use('/assets', express.static(assetsDir, { immutable: true, maxAge: '365d', fallthrough: false }))
  const publicFiles = express.static(clientDir, { index: false, maxAge: '1h' })
  // index.html is only ever the answer to a page address, with that address's status
  router.use((req, res, next) => (req.path === '/index.html' ? next() : publicFiles(req, res, next)))
  router.get(/^\/(?!api\/).*/, (req, res, next) => {
    if (!fs.existsSync(indexFile)) {
      next(new Error(`client build missing at ${indexFile}: run "npm run build" or "npm start"`))
      return
    }
    const search = req.originalUrl.slice(req.path.length)
    const answer = pageAnswer(req.path, search, slugs)
    if (answer.status === 301) {
      res.redirect(301, answer.location)
      return
    }
    res.set('Cache-Control', 'no-cache')
    if (answer.status === 200) {
      res.sendFile(indexFile)
      return
    }
    const html = fs.readFileSync(indexFile, 'utf8').replace('</head>', `${NOT_FOUND_MARK}</head>`)
    res.status(404).type('html').send(html)
  })
  return router
}

const TEXT_ASSET = /^\/[\w.-]+\.(?:js|css|svg)$/

/**
 * The JavaScript and CSS gzipped, for browsers that accept it (all of them): a phone on a slow network
 * downloads about a third of the bytes. Asset names carry a content hash, so each file is compressed
 * once and kept in memory; the rest falls through to express.static.
 */
function gzippedAssets(assetsDir: string): RequestHandler {
  const compressed = new Map<string, Buffer>()
  return (req, res, next) => {
    if (!TEXT_ASSET.test(req.path) || !req.acceptsEncodings('gzip')) return next()
    let body = compressed.get(req.path)
    if (!body) {
      const file = path.join(assetsDir, req.path)
      if (!fs.existsSync(file)) return next()
      body = zlib.gzipSync(fs.readFileSync(file), { level: zlib.constants.Z_BEST_COMPRESSION })
      compressed.set(req.path, body)
    }
    res
      .set({
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Encoding': 'gzip',
        Vary: 'Accept-Encoding',
      })
      .type(path.extname(req.path))
      .send(body)
  }
}
