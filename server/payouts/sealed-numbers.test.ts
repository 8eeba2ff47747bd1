import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EVIDENCE_KEY_FILE, loadEvidenceKey } from '../evidence/evidence-key.ts'
import { PRIVATE_FILE_MODE } from '../private-files.ts'
import { loadPaymentsKey, openNumber, PAYMENTS_KEY_FILE, sealNumber } from './sealed-numbers.ts'

const SSN = '123-45-6789'
const tempDirs: string[] = []

function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-key-'))
  tempDirs.push(dir)
  return dir
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function messageOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected an error')
}

const KEY = Buffer.alloc(32, 7)
const OTHER_KEY = Buffer.alloc(32, 8)

describe('sealNumber and openNumber', () => {
  it.each([
    ['tin', SSN],
    ['tin', '12-3456789'],
    ['routingNumber', '021000021'],
    ['accountNumber', '000123456789'],
    ['walletPhone', '5592345678'],
  ])('seals a %s and opens it again', (purpose, value) => {
    const sealed = sealNumber({ key: KEY, value, purpose })
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain(value)
    expect(sealed).not.toContain(value.replaceAll('-', ''))
    expect(openNumber({ key: KEY, sealed, purpose })).toBe(value)
  })

  it('seals the same number differently each time (a fresh IV), so equal numbers do not show', () => {
    const first = sealNumber({ key: KEY, value: SSN, purpose: 'tin' })
    const second = sealNumber({ key: KEY, value: SSN, purpose: 'tin' })
    expect(first).not.toBe(second)
    expect(Buffer.from(first.slice(3), 'base64url').subarray(0, 12)).not.toEqual(
      Buffer.from(second.slice(3), 'base64url').subarray(0, 12),
    )
  })

  it('detects any changed byte of the IV, the tag or the ciphertext', () => {
    const sealed = sealNumber({ key: KEY, value: SSN, purpose: 'tin' })
    const bytes = Buffer.from(sealed.slice(3), 'base64url')
    for (let index = 0; index < bytes.length; index++) {
      const changed = Buffer.from(bytes)
      changed[index]! ^= 0x01
      const message = messageOf(() =>
        openNumber({ key: KEY, sealed: `v1.${changed.toString('base64url')}`, purpose: 'tin' }),
      )
      expect(message).toMatch(/^a sealed tin could not be opened/)
    }
  })

  it('refuses a truncated value, another version and text that is not base64url', () => {
    const sealed = sealNumber({ key: KEY, value: SSN, purpose: 'tin' })
    for (const bad of [sealed.slice(0, 20), sealed.replace(/^v1/, 'v2'), `${sealed}!`, '', SSN]) {
      expect(messageOf(() => openNumber({ key: KEY, sealed: bad, purpose: 'tin' }))).toMatch(
        /^a sealed tin (is not in the v1 format|could not be opened)/,
      )
    }
  })

  it('refuses another key, without the number or the sealed text in the error', () => {
    const sealed = sealNumber({ key: KEY, value: SSN, purpose: 'tin' })
    const message = messageOf(() => openNumber({ key: OTHER_KEY, sealed, purpose: 'tin' }))
    expect(message).toBe(
      'a sealed tin could not be opened: it was sealed under another payments key (PAYMENTS_KEY or payments.key) or the stored value was changed',
    )
    expect(message).not.toContain('6789')
    expect(message).not.toContain(sealed.slice(3, 15))
  })

  it('opens a number only as what it was sealed as', () => {
    const sealed = sealNumber({ key: KEY, value: '000123456789', purpose: 'accountNumber' })
    expect(messageOf(() => openNumber({ key: KEY, sealed, purpose: 'tin' }))).toMatch(
      /^a sealed tin could not be opened/,
    )
  })
})

describe('loadPaymentsKey', () => {
  it('makes DATA_DIR/payments.key on first start, readable by the server user only, and keeps it', () => {
    const dataDir = makeDataDir()
    const key = loadPaymentsKey({ setting: undefined, dataDir })
    const file = path.join(dataDir, PAYMENTS_KEY_FILE)
    expect(fs.statSync(file).mode & 0o777).toBe(PRIVATE_FILE_MODE)
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    expect(key).toHaveLength(32)
    expect(loadPaymentsKey({ setting: undefined, dataDir })).toEqual(key)
    const sealed = sealNumber({ key, value: SSN, purpose: 'tin' })
    expect(
      openNumber({ key: loadPaymentsKey({ setting: undefined, dataDir }), sealed, purpose: 'tin' }),
    ).toBe(SSN)
  })

  it('is a key of its own, apart from the evidence key in the same folder', () => {
    const dataDir = makeDataDir()
    const evidenceKey = loadEvidenceKey({ setting: undefined, dataDir })
    const paymentsKey = loadPaymentsKey({ setting: undefined, dataDir })
    expect(fs.existsSync(path.join(dataDir, EVIDENCE_KEY_FILE))).toBe(true)
    expect(paymentsKey).not.toEqual(evidenceKey)
  })

  it('takes PAYMENTS_KEY instead of the file when set, and refuses one that is not 64 hex characters', () => {
    const dataDir = makeDataDir()
    const hex = 'ab'.repeat(32)
    expect(loadPaymentsKey({ setting: ` ${hex}\n`, dataDir })).toEqual(Buffer.from(hex, 'hex'))
    expect(fs.existsSync(path.join(dataDir, PAYMENTS_KEY_FILE))).toBe(false)
    const message = messageOf(() => loadPaymentsKey({ setting: 'secret-but-short', dataDir }))
    expect(message).toBe('PAYMENTS_KEY must be 64 hex characters (make one with: openssl rand -hex 32)')
  })

  it('refuses a damaged key file, naming it', () => {
    const dataDir = makeDataDir()
    fs.writeFileSync(path.join(dataDir, PAYMENTS_KEY_FILE), 'not a key\n', { mode: 0o600 })
    expect(() => loadPaymentsKey({ setting: undefined, dataDir })).toThrow(
      `${path.join(dataDir, PAYMENTS_KEY_FILE)} must be 64 hex characters`,
    )
  })
})
