import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from '../support/helpers.ts'

const NOT_FOUND_MARK = '<meta name="page-status" content="404"></head>'

/** A stand-in for dist/client: the page and one hashed asset are all the routing looks at. */
function makeClientDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'))
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Claims</title></head><body><div id="root"></div></body></html>',
  )
  fs.mkdirSync(path.join(dir, 'assets'))
  fs.writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'console.log("client")')
  return dir
}

describe('page addresses', () => {
  let context: TestContext
  let clientDir: string
  beforeAll(async () => {
    clientDir = makeClientDir()
    context = await createTestContext('sqlite', { clientDir })
  })
  afterAll(async () => {
    await context.close()
    fs.rmSync(clientDir, { recursive: true, force: true })
  })

  it.each([
    '/',
    '/view-agreement',
    '/thank-you',
    '/military-analysis',
    '/confirm',
    '/staff/audit',
    '/staff/intake/12',
    '/brigit',
    '/brigit-success',
    '/brigit-admin',
    '/brigit-admin/filing',
    '/brigit-admin/payouts',
    '/brigit-admin/claims/12/cluster',
    '/super-com',
    '/super-com-success',
    '/klover',
    '/klover-admin',
  ])('answers %s with the page (200)', async (page) => {
    const res = await request(context.app).get(page).expect(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.text).toContain('<div id="root">')
    expect(res.text).not.toContain('page-status')
  })

  it.each([
    '/no-such-page',
    '/foo/bar',
    '/nosuchapp',
    '/nosuchapp-success',
    '/nosuchapp-admin',
    '/brigit/extra',
    '/brigit/',
    '/brigit-successful',
    '/brigit-admin-success',
    '/nosuchapp-admin/filing',
    '/brigit-admin/filing/x',
    '/nosuchapp-admin/payouts',
    '/brigit-admin/payouts/x',
    '/brigit-admin/claims/12/cluster/x',
    '/nosuchapp-admin/claims/12/cluster',
    '/view-agreement/x',
    '/staff/intake/x',
    '/staff/intake/',
    '/index.html',
    '//brigit',
  ])('answers %s with 404 and the page marked not found', async (page) => {
    const res = await request(context.app).get(page).expect(404)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.text).toContain('<div id="root">')
    expect(res.text).toContain(NOT_FOUND_MARK)
  })

  it.each([
    ['/Brigit', '/brigit'],
    ['/Brigit?lang=es', '/brigit?lang=es'],
    ['/BRIGIT-success', '/brigit-success'],
    ['/Brigit-Admin', '/brigit-admin'],
    ['/Brigit-Admin?lang=en&x=1', '/brigit-admin?lang=en&x=1'],
    ['/View-Agreement', '/view-agreement'],
  ])('redirects %s to its canonical address %s (301)', async (asked, canonical) => {
    const res = await request(context.app).get(asked).expect(301)
    expect(res.headers.location).toBe(canonical)
  })

  it('answers a page in other letter case of an unknown app with 404, not a redirect', async () => {
    const res = await request(context.app).get('/NoSuchApp').expect(404)
    expect(res.text).toContain(NOT_FOUND_MARK)
  })

  it('leaves unknown /api/ addresses to the API: JSON 404, never the page', async () => {
    const res = await request(context.app).get('/api/no-such-thing').expect(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.text).not.toContain('<div id="root">')
  })

  it('answers the config of an unknown app with 404 FORM_NOT_FOUND', async () => {
    const res = await request(context.app).get('/api/forms/nosuchapp').expect(404)
    expect(res.body.error.code).toBe('FORM_NOT_FOUND')
  })

  it('answers /favicon.svg with the firm’s initials as an SVG icon, kept by browsers a week, that the pages’ policy allows', async () => {
    const res = await request(context.app).get('/favicon.svg').expect(200)
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(res.headers['cache-control']).toBe('public, max-age=604800')
    const svg = res.body instanceof Buffer ? res.body.toString('utf8') : res.text
    expect(svg).toContain('fill="#1d4ed8"')
    expect(svg).toContain('>CAC</text>')
    const page = await request(context.app).get('/brigit').expect(200)
    expect(page.headers['content-security-policy']).toMatch(/img-src 'self'/)
  })

  it('still serves the client’s files', async () => {
    const res = await request(context.app).get('/assets/main-abc123.js').expect(200)
    expect(res.text).toBe('console.log("client")')
  })
})
