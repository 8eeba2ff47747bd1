import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import request from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { staticClient } from '../../server/static-client.ts'
import { FORMS_DIR } from './helpers.ts'
import { loadFormConfigs } from '../../server/forms/load-form-configs.ts'

const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'))
fs.writeFileSync(
  path.join(clientDir, 'index.html'),
  '<!doctype html><html><head><title>t</title></head><body></body></html>',
)
const app = express().use(staticClient(clientDir, { slugs: new Set(loadFormConfigs(FORMS_DIR).keys()) }))

afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }))

describe('page addresses', () => {
  it.each([
    '/',
    '/view-agreement',
    '/thank-you',
    '/military-analysis',
    '/brigit',
    '/brigit-success',
    '/brigit-admin',
    '/super-com',
    '/klover',
  ])('answers %s with the page (200)', async (page) => {
    const res = await request(app).get(page).expect(200)
    expect(res.text).not.toContain('page-status')
  })

  it.each([
    '/no-such-page',
    '/nosuchapp',
    '/brigit/extra',
    '/brigit-successful',
    '/nosuchapp-admin',
    '/robots.txt',
  ])('answers %s with 404 and the page marked not found', async (page) => {
    const res = await request(app).get(page).expect(404)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.text).toContain('<meta name="page-status" content="404"></head>')
  })

  it.each([
    ['/Brigit', '/brigit'],
    ['/Brigit?lang=es', '/brigit?lang=es'],
    ['/BRIGIT-success', '/brigit-success'],
    ['/Brigit-Admin', '/brigit-admin'],
    ['/View-Agreement', '/view-agreement'],
  ])('redirects %s to its canonical address %s (301)', async (asked, canonical) => {
    const res = await request(app).get(asked).expect(301)
    expect(res.headers.location).toBe(canonical)
  })
})
