import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { agreementContext } from '../../src/agreement-context.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import type { Locale } from '../../src/translate.ts'
import { pngDataUrl } from '../../tests/server/support/claim-fixtures.ts'
import { loadIntakeConfig } from '../forms/load-intake-config.ts'
import { loadAgreementTemplates } from './agreement-templates.ts'

const INTAKE = loadIntakeConfig(path.resolve(import.meta.dirname, '..', '..', 'forms'))
const TEMPLATES = loadAgreementTemplates()
const ANSWERS = { firstName: 'Ana', lastName: 'Lopez', email: 'ana@example.com', phoneNumber: '5552234567' }

/** The main form's agreement, as signed with these apps chosen, as plain text. */
function intakeAgreement(chosen: string[], locale: Locale, noneChosen = ''): string {
  const app = intakeAgreementApp({ config: INTAKE, chosen, locale, noneChosen })
  const context = agreementContext({
    app,
    answers: { ...ANSWERS, signature: pngDataUrl() },
    date: '2026-11-22',
    locale,
  })
  return TEMPLATES.render(INTAKE.agreement.template, context, locale)
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
}

describe('the main form agreement names one app or several', () => {
  it('says "app" for one app in English', () => {
    const text = intakeAgreement(['earnin'], 'en')
    expect(text).toContain('connected with your use of the Earnin app.')
    expect(text).toContain('the companies that own, run or work with it,')
    expect(text).toContain('I personally used the Earnin app;')
    expect(text).toContain('contact Earnin, its lawyers')
  })

  it('says "apps" for several apps in English', () => {
    const text = intakeAgreement(['earnin', 'chime'], 'en')
    expect(text).toContain('connected with your use of the Earnin and Chime apps.')
    expect(text).toContain('the companies that own, run or work with them,')
    expect(text).toContain('I personally used the Earnin and Chime apps;')
    expect(text).toContain('contact Earnin and Chime, their lawyers')
    expect(text).toContain('any claim Earnin and Chime make against you')
    expect(text).not.toMatch(/Chime app\b/)
  })

  it("reads whole before any app is chosen, with the page's words for the apps to come", () => {
    const english = intakeAgreement([], 'en', 'the cash advance apps you choose')
    expect(english).toContain('connected with your use of the cash advance apps you choose.')
    expect(english).toContain('I personally used the cash advance apps you choose;')
    expect(english).not.toContain('the the')
    const spanish = intakeAgreement([], 'es', 'las aplicaciones de adelanto de efectivo que elija')
    expect(spanish).toContain('su uso de las aplicaciones de adelanto de efectivo que elija.')
    expect(spanish).toContain('usé personalmente las aplicaciones de adelanto de efectivo que elija;')
    expect(spanish).not.toContain('las aplicaciones las aplicaciones')
  })

  it('says "la aplicación" for one app and "las aplicaciones" for several in Spanish', () => {
    const one = intakeAgreement(['earnin'], 'es')
    expect(one).toContain('su uso de la aplicación Earnin.')
    expect(one).toContain('usé personalmente la aplicación Earnin;')
    const several = intakeAgreement(['earnin', 'chime'], 'es')
    expect(several).toContain('su uso de las aplicaciones Earnin y Chime.')
    expect(several).toContain('usé personalmente las aplicaciones Earnin y Chime;')
    expect(several).toContain('las operan o trabajan con ellas')
    expect(several).not.toContain('la aplicación Earnin y Chime')
  })
})
