import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as details from './payout-details.ts'
import {
  checkPayoutChoice,
  checkW9,
  isValidEin,
  isValidRoutingNumber,
  isValidSsn,
  mask,
  maskEmail,
  maskName,
  plainTin,
  type W9Details,
} from './payout-details.ts'
import { translator, type Dictionary } from './translate.ts'

const SPANISH: Dictionary = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../forms/es/ui/payouts.json'), 'utf8'),
) as Dictionary
const es = translator(SPANISH)

function makeW9(overrides: Partial<Record<keyof W9Details, unknown>> = {}) {
  return {
    legalName: 'Ana López',
    tinType: 'ssn',
    tin: '123-45-6789',
    addressLine1: '100 Main St',
    city: 'Fresno',
    state: 'CA',
    zip: '93721',
    isCertified: true,
    ...overrides,
  }
}

describe('checkPayoutChoice', () => {
  it.each([
    { method: 'paypal', email: 'ana@example.com' },
    { method: 'paypal', phone: '(559) 234-5678' },
    { method: 'venmo', phone: '+1 559 234 5678' },
    { method: 'venmo', email: 'ana@example.com', phone: '  ' },
    { method: 'ach', routingNumber: '021000021', accountNumber: '000123456789', accountType: 'checking' },
    { method: 'ach', routingNumber: ' 121000358 ', accountNumber: '1234', accountType: 'savings' },
    { method: 'check' },
  ])('takes %o', (choice) => {
    expect(checkPayoutChoice(choice)).toEqual({})
  })

  it('asks for a wallet e-mail or phone, naming the wallet, in English and Spanish', () => {
    expect(checkPayoutChoice({ method: 'venmo' })).toEqual({
      email: ['Please enter the e-mail address or the phone number of your Venmo account.'],
    })
    expect(checkPayoutChoice({ method: 'paypal', email: '' }, es)).toEqual({
      email: ['Escriba el correo electrónico o el número de teléfono de su cuenta de PayPal.'],
    })
  })

  it('refuses a malformed wallet e-mail or phone, and both at once', () => {
    expect(checkPayoutChoice({ method: 'paypal', email: 'ana@example' })).toEqual({
      email: ['Please enter a valid e-mail address, like name@example.com.'],
    })
    expect(checkPayoutChoice({ method: 'paypal', phone: '555-1234' }, es)).toEqual({
      phone: ['Escriba un número de teléfono de EE. UU. de 10 dígitos.'],
    })
    expect(checkPayoutChoice({ method: 'venmo', phone: '1234567890' })).toEqual({
      phone: ['Please enter a 10-digit US phone number.'],
    })
    expect(checkPayoutChoice({ method: 'venmo', email: 'ana@example.com', phone: '5592345678' })).toEqual({
      phone: ['Please enter either an e-mail address or a phone number, not both.'],
    })
  })

  it('lists every wrong bank field at once, keyed by field', () => {
    expect(
      checkPayoutChoice({
        method: 'ach',
        routingNumber: '021000022',
        accountNumber: '123',
        accountType: 'money market',
      }),
    ).toEqual({
      routingNumber: [
        'This is not a valid routing number. Please copy it again from a check or from your bank.',
      ],
      accountNumber: ['Please enter your account number: 4 to 17 digits.'],
      accountType: ['Please choose checking or savings.'],
    })
    expect(
      checkPayoutChoice(
        { method: 'ach', routingNumber: '02100002', accountNumber: '123456789012345678' },
        es,
      ),
    ).toEqual({
      routingNumber: ['Escriba el número de ruta bancaria de 9 dígitos de su banco.'],
      accountNumber: ['Escriba su número de cuenta: de 4 a 17 dígitos.'],
      accountType: ['Elija cuenta de cheques o cuenta de ahorros.'],
    })
  })

  it('refuses a method it does not know', () => {
    expect(checkPayoutChoice({ method: 'zelle' })).toEqual({
      method: ['Please choose how you want to be paid.'],
    })
    expect(checkPayoutChoice({}, es)).toEqual({ method: ['Elija cómo quiere recibir el pago.'] })
  })
})

describe('isValidRoutingNumber', () => {
  it.each(['021000021', '011000015', '121000358', '322271627', '800000006'])('takes %s', (routing) => {
    expect(isValidRoutingNumber(routing)).toBe(true)
  })

  it.each([
    ['021000022', 'a wrong check digit'],
    ['130000006', 'prefix 13, outside the Federal Reserve ranges'],
    ['500000005', 'prefix 50'],
    ['810000009', 'prefix 81'],
    ['000000000', 'all zeros'],
    ['02100002', 'eight digits'],
    ['02100002a', 'a letter'],
  ])('refuses %s (%s)', (routing) => {
    expect(isValidRoutingNumber(routing)).toBe(false)
  })
})

describe('SSN and EIN', () => {
  it.each(['123-45-6789', '123456789', '001-01-0001', '665-99-9999', '899-12-3456'])(
    'takes SSN %s',
    (ssn) => {
      expect(isValidSsn(ssn)).toBe(true)
    },
  )

  it.each([
    '000-12-3456',
    '666-12-3456',
    '900-12-3456',
    '999-12-3456',
    '123-00-4567',
    '123-45-0000',
    '123-456789',
    '12-3456789',
    '123-45-678',
  ])('refuses SSN %s', (ssn) => {
    expect(isValidSsn(ssn)).toBe(false)
  })

  it.each(['12-3456789', '01-2345678', '99-1234567', '20-1234567', '31-1234567', '123456789'])(
    'takes EIN %s',
    (ein) => {
      expect(isValidEin(ein)).toBe(true)
    },
  )

  it.each([
    '00-1234567',
    '07-1234567',
    '17-1234567',
    '28-1234567',
    '49-1234567',
    '69-1234567',
    '70-1234567',
    '89-1234567',
    '96-1234567',
    '97-1234567',
    '123-45-6789',
    '1-23456789',
  ])('refuses EIN %s', (ein) => {
    expect(isValidEin(ein)).toBe(false)
  })

  it('writes nine bare digits as the W-9 writes them', () => {
    expect(plainTin('ssn', '123456789')).toBe('123-45-6789')
    expect(plainTin('ein', ' 123456789 ')).toBe('12-3456789')
    expect(plainTin('ssn', '123 45 6789')).toBeUndefined()
  })
})

describe('checkW9', () => {
  it('takes a complete W-9 with an SSN or an EIN', () => {
    expect(checkW9(makeW9())).toEqual({})
    expect(
      checkW9(makeW9({ tinType: 'ein', tin: '12-3456789', addressLine2: 'Apt 4', zip: '93721-1234' })),
    ).toEqual({})
  })

  it('tells a wrongly written SSN from one that cannot exist', () => {
    expect(checkW9(makeW9({ tin: '12345' }))).toEqual({
      tin: ['Please enter your Social Security number as ###-##-####.'],
    })
    expect(checkW9(makeW9({ tin: '666-12-3456' }))).toEqual({
      tin: ['This is not a valid Social Security number. Please check it.'],
    })
    expect(checkW9(makeW9({ tin: '666-12-3456' }), es)).toEqual({
      tin: ['Este no es un número de Seguro Social válido. Revíselo.'],
    })
    expect(checkW9(makeW9({ tinType: 'ein', tin: '07-1234567' }), es)).toEqual({
      tin: ['Este no es un número de identificación del empleador válido. Revíselo.'],
    })
  })

  it('lists every missing field of an empty W-9, keyed by field, in Spanish', () => {
    expect(checkW9({}, es)).toEqual({
      legalName: ['Escriba su nombre tal como aparece en su declaración de impuestos sobre el ingreso.'],
      tinType: ['Elija número de Seguro Social o número de identificación del empleador.'],
      addressLine1: ['Escriba su dirección (calle y número).'],
      city: ['Escriba su ciudad.'],
      state: ['Elija su estado.'],
      zip: ['Escriba su código postal (ZIP) de 5 dígitos, o ZIP+4.'],
      isCertified: ['Confirme la certificación para continuar.'],
    })
  })

  it('refuses a name without letters, long lines, a state outside the US and a foreign postal code', () => {
    expect(
      checkW9(
        makeW9({
          legalName: '1234',
          addressLine2: 'x'.repeat(101),
          state: 'ON',
          zip: 'K1A 0B1',
          isCertified: 'yes',
        }),
      ),
    ).toEqual({
      legalName: ['Please enter your name as shown on your income tax return.'],
      addressLine2: ['Please shorten this line to 100 characters.'],
      state: ['Please choose your state.'],
      zip: ['Please enter your 5-digit ZIP code, or ZIP+4.'],
      isCertified: ['Please confirm the certification to go on.'],
    })
    expect(checkW9(makeW9({ legalName: 'A'.repeat(101) }), es)).toEqual({
      legalName: ['Acorte el nombre a 100 caracteres.'],
    })
  })

  it('takes a territory, a military post and a lowercase state', () => {
    for (const state of ['PR', 'AE', 'ny']) expect(checkW9(makeW9({ state }))).toEqual({})
  })
})

describe('mask', () => {
  it.each([
    ['123-45-6789', '••••6789'],
    ['12-3456789', '••••6789'],
    ['000123456789', '••••6789'],
    ['(559) 234-5678', '••••5678'],
    ['123456', '••••456'],
    ['1234', '••••34'],
    ['', ''],
  ])('shows %s as %s', (value, masked) => {
    expect(mask(value)).toBe(masked)
  })

  it('hides the name of an e-mail address but its first letter', () => {
    expect(maskEmail('ana.lopez@example.com')).toBe('a••••@example.com')
    expect(maskEmail('not-an-address')).toBe('••••ress')
  })

  it("cuts each word of a payee's name to its first letter, accented and all", () => {
    expect(maskName(' Rosa  María Mendez ')).toBe('R•••• M•••• M••••')
    expect(maskName('Łukasz Nguyễn')).toBe('Ł•••• N••••')
    expect(maskName('')).toBe('')
  })
})

describe('the Spanish texts (forms/es/ui/payouts.json)', () => {
  it('translate every message a claimant can read, keeping its {slots}', () => {
    const messages = Object.entries(details)
      .filter(([name, value]) => name.endsWith('_MESSAGE') && typeof value === 'string')
      .map(([, value]) => value as string)
    expect(messages.length).toBeGreaterThan(15)
    const slots = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()
    for (const message of messages) {
      expect(SPANISH[message], message).toBeDefined()
      expect(slots(SPANISH[message]!)).toEqual(slots(message))
    }
  })
})
