import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  pngDataUrl,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { postClaim } from '../support/claims.ts'

const SCREENSHOT = readFixture('bank-statement.png')

function intakeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin'],
    feesIncurred: ['Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Łukasz',
    lastName: 'Nguyễn',
    email: 'lukasz@example.com',
    phone: '(305) 555-0142',
    address: '1 Calle Ocho',
    city: 'Miami',
    state: 'FL',
    zipCode: '33135',
    signature: pngDataUrl(),
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a claimant in Spanish`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await ctx.db.deleteFrom('intake_cases').execute()
      await ctx.db.deleteFrom('form_submissions').execute()
    })

    const sendClaim = (lang: string | undefined, data = makeClaimData()) =>
      postClaim(ctx.app, {
        app: 'brigit',
        lang,
        data,
        screenshot: { content: SCREENSHOT, name: 'estado.png' },
      })

    it('gets the Spanish form config and a validator of its own', async () => {
      const spanish = await request(ctx.app).get('/api/forms/brigit?lang=es').expect(200)
      const english = await request(ctx.app).get('/api/forms/brigit').expect(200)

      expect(spanish.body.schema.properties.firstName.title).toBe('Nombre')
      expect(spanish.body.submitLabel).toBe('Enviar reclamo de Brigit')
      expect(english.body.schema.properties.firstName.title).toBe('First Name')
      const spanishValidator = await request(ctx.app)
        .get('/api/forms/brigit/validator.js?lang=es')
        .expect(200)
      const englishValidator = await request(ctx.app).get('/api/forms/brigit/validator.js').expect(200)
      expect(spanishValidator.text).not.toBe(englishValidator.text)
    })

    it("gets the pages' own texts in Spanish, and none for English", async () => {
      const spanish = await request(ctx.app).get('/api/ui-text?lang=es').expect(200)
      expect(spanish.body['Find My Agreement']).toBe('Buscar mi acuerdo')
      expect((await request(ctx.app).get('/api/ui-text').expect(200)).body).toEqual({})
    })

    it('stores a Spanish claim with its language, its Spanish agreement and the consent as shown', async () => {
      await sendClaim('es', makeClaimData({ firstName: 'Łukasz', lastName: 'Nguyễn' })).expect(201)

      const claim = await ctx.db.selectFrom('claims').selectAll().executeTakeFirstOrThrow()
      expect(claim.locale).toBe('es')
      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect(record.locale).toBe('es')
      expect(record.consent_text).toBe(
        'Al firmar arriba y enviar este formulario, acepto el Acuerdo de Honorarios Contingentes entre Abogado y Cliente que se muestra arriba y firmarlo electrónicamente.',
      )
      expect(record.html).toContain('Acuerdo de Honorarios Contingentes')
      expect(record.html).toContain('Łukasz Nguyễn')
      expect(record.html).toMatch(/\d{1,2} de [a-z]+ de \d{4}/)
    })

    it('stores an English claim as English, as before', async () => {
      await sendClaim(undefined).expect(201)

      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect(record.locale).toBe('en')
      expect(record.html).toContain('Attorney-Client Contingency Fee Agreement')
    })

    it("answers a Spanish claim's problems in Spanish", async () => {
      const invalid = await sendClaim('es', makeClaimData({ firstName: '' })).expect(422)
      expect(invalid.body.error.fields.firstName.__errors).toEqual(['El nombre es obligatorio'])

      await sendClaim('es').expect(201)
      const duplicate = await sendClaim('es').expect(409)
      expect(duplicate.body.error.message).toBe(
        'Ya existe una solicitud con este número de teléfono. Enviar varias solicitudes no aumentará sus posibilidades de recibir una compensación.',
      )
    })

    it('stores a Spanish intake with its language and its consent texts as shown', async () => {
      await request(ctx.app).post('/api/intake?lang=es').send(intakeData()).expect(201)

      const intake = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect(intake.locale).toBe('es')
      expect(intake.consent_text).toMatch(/^Acepto el Acuerdo entre Abogado y Cliente/)
      expect(intake.fees_incurred).toBe(JSON.stringify(['Tips']))
    })
  })
}
