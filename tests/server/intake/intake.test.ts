import { linkMailsTo } from '../support/agreement-link.ts'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { intakeAppChoices, intakeConsentTexts } from '../../../src/intake-config.ts'
import { intakeRecordFromRow, sealOf } from '../../../server/evidence/sealed-record.ts'
import {
  TEMPLATES,
  addSpanishTexts,
  createTestContext,
  DIALECTS,
  FORMS_DIR,
  pngDataUrl,
  type TestContext,
  type TestDialect,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

// supertest sends no Origin; the staff routes compare Origin's host with Host, so staff calls send both
const SITE = 'intake.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DUPLICATE_MESSAGE =
  'A submission with this email and phone number already exists. Numerous submissions will not increase your chances of a payout. We e-mailed you a link to your claims, where you can add an app you missed.'
const CSV_HEADER = 'Name,Email,Phone,Apps Used,Date,Time Zone,App,Step 2 Status'
const INTAKE_FILE = path.join(FORMS_DIR, 'intake.json')
const SIGNATURE = pngDataUrl()
/**
 * A valid main intake as the browser sends it. A key overridden with `undefined` is left out, as
 * JSON.stringify would; addressLine2 is left out unless given.
 */
function makeIntakeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    cashAdvanceApps: ['earnin', 'chime'],
    feesIncurred: ['Subscription Fee', 'Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Jane',
    lastName: 'Doe',
    email: '  Jane.Doe@Example.COM ',
    phone: '8085550100',
    address: '123 Kalakaua Ave',
    city: 'Honolulu',
    state: 'HI',
    zipCode: '96815',
    signature: SIGNATURE,
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key]
  return data
}

/** The main form's rules and messages: what breaks each one, and the message it gives. */
const RULES: { rule: string; field: string; change: Record<string, unknown>; message: string }[] = [
  {
    rule: 'apps empty',
    field: 'cashAdvanceApps',
    change: { cashAdvanceApps: [] },
    message: 'Please select at least one app',
  },
  {
    rule: 'apps missing',
    field: 'cashAdvanceApps',
    change: { cashAdvanceApps: undefined },
    message: 'Please select at least one app',
  },
  {
    rule: 'fees empty',
    field: 'feesIncurred',
    change: { feesIncurred: [] },
    message: 'Please select at least one fee type',
  },
  {
    rule: 'fees missing',
    field: 'feesIncurred',
    change: { feesIncurred: undefined },
    message: 'Please select at least one fee type',
  },
  {
    rule: 'over 18 missing',
    field: 'isOver18',
    change: { isOver18: undefined },
    message: 'Please indicate if you are 18 or older',
  },
  {
    rule: 'military missing',
    field: 'isActiveMilitary',
    change: { isActiveMilitary: undefined },
    message: 'Please indicate your military status',
  },
  {
    rule: 'bankruptcy missing',
    field: 'hasBankruptcy',
    change: { hasBankruptcy: undefined },
    message: 'Please indicate your bankruptcy status',
  },
  {
    rule: 'first name blank',
    field: 'firstName',
    change: { firstName: '   ' },
    message: 'First name is required',
  },
  {
    rule: 'first name missing',
    field: 'firstName',
    change: { firstName: undefined },
    message: 'First name is required',
  },
  { rule: 'last name blank', field: 'lastName', change: { lastName: ' ' }, message: 'Last name is required' },
  {
    rule: 'last name missing',
    field: 'lastName',
    change: { lastName: undefined },
    message: 'Last name is required',
  },
  { rule: 'email missing', field: 'email', change: { email: undefined }, message: 'Email is required' },
  { rule: 'email blank', field: 'email', change: { email: '  ' }, message: 'Email is required' },
  {
    rule: 'email without a domain',
    field: 'email',
    change: { email: 'jane.doe@' },
    message: 'Email is invalid',
  },
  {
    rule: 'email without a dot',
    field: 'email',
    change: { email: 'jane@example' },
    message: 'Email is invalid',
  },
  { rule: 'address blank', field: 'address', change: { address: '' }, message: 'Address is required' },
  {
    rule: 'address missing',
    field: 'address',
    change: { address: undefined },
    message: 'Address is required',
  },
  { rule: 'city blank', field: 'city', change: { city: '  ' }, message: 'City is required' },
  { rule: 'city missing', field: 'city', change: { city: undefined }, message: 'City is required' },
  { rule: 'state missing', field: 'state', change: { state: undefined }, message: 'State is required' },
  { rule: 'state empty', field: 'state', change: { state: '' }, message: 'State is required' },
  {
    rule: 'state DC (not one of the 50)',
    field: 'state',
    change: { state: 'DC' },
    message: 'State is required',
  },
  { rule: 'state a territory (PR)', field: 'state', change: { state: 'PR' }, message: 'State is required' },
  { rule: 'zip missing', field: 'zipCode', change: { zipCode: undefined }, message: 'ZIP code is required' },
  { rule: 'zip blank', field: 'zipCode', change: { zipCode: ' ' }, message: 'ZIP code is required' },
  {
    rule: 'phone missing',
    field: 'phone',
    change: { phone: undefined },
    message: 'Phone number is required',
  },
  { rule: 'phone empty', field: 'phone', change: { phone: '' }, message: 'Phone number is required' },
  {
    rule: 'consent false',
    field: 'consentAgreed',
    change: { consentAgreed: false },
    message: 'You must agree to the terms',
  },
  {
    rule: 'consent missing',
    field: 'consentAgreed',
    change: { consentAgreed: undefined },
    message: 'You must agree to the terms',
  },
  {
    rule: 'signature missing',
    field: 'signature',
    change: { signature: undefined },
    message: 'Signature is required',
  },
  {
    rule: 'signature empty',
    field: 'signature',
    change: { signature: '' },
    message: 'Signature is required',
  },
  {
    rule: 'signature not a real PNG',
    field: 'signature',
    change: { signature: 'data:image/png;base64,AAAAAAAAAAAA' },
    message: 'Signature is required',
  },
]

/** Every message of the main form table, by field: what an empty form gives. */
const EMPTY_FORM_ERRORS = {
  cashAdvanceApps: { __errors: ['Please select at least one app'] },
  feesIncurred: { __errors: ['Please select at least one fee type'] },
  isOver18: { __errors: ['Please indicate if you are 18 or older'] },
  isActiveMilitary: { __errors: ['Please indicate your military status'] },
  hasBankruptcy: { __errors: ['Please indicate your bankruptcy status'] },
  firstName: { __errors: ['First name is required'] },
  lastName: { __errors: ['Last name is required'] },
  email: { __errors: ['Email is required'] },
  phone: { __errors: ['Phone number is required'] },
  address: { __errors: ['Address is required'] },
  city: { __errors: ['City is required'] },
  state: { __errors: ['State is required'] },
  zipCode: { __errors: ['ZIP code is required'] },
  signature: { __errors: ['Signature is required'] },
  consentAgreed: { __errors: ['You must agree to the terms'] },
}

async function counts(ctx: TestContext): Promise<{ intakes: number; cases: number }> {
  const count = async (table: 'form_submissions' | 'intake_cases') => {
    const { n } = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(n)
  }
  return { intakes: await count('form_submissions'), cases: await count('intake_cases') }
}

async function clearIntakes(ctx: TestContext): Promise<void> {
  await ctx.db.deleteFrom('intake_cases').execute()
  await ctx.db.deleteFrom('form_submissions').execute()
  await ctx.db.deleteFrom('claims').execute()
}

function postIntake(ctx: TestContext, data: unknown) {
  return request(ctx.app)
    .post('/api/intake')
    .send(data as object)
}

/** Makes every insert of a chime case fail inside the database; returns the undo. */
async function failChimeCases(ctx: TestContext, dialect: TestDialect): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER fail_chime_case BEFORE INSERT ON intake_cases WHEN NEW.app = 'chime'
         BEGIN SELECT RAISE(ABORT, 'forced'); END`,
      )
      .execute(ctx.db)
    return async () => {
      await sql.raw('DROP TRIGGER fail_chime_case').execute(ctx.db)
    }
  }
  await sql
    .raw(
      `CREATE FUNCTION fail_chime_case() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'forced'; END $$`,
    )
    .execute(ctx.db)
  await sql
    .raw(
      `CREATE TRIGGER fail_chime_case BEFORE INSERT ON intake_cases FOR EACH ROW
       WHEN (NEW.app = 'chime') EXECUTE FUNCTION fail_chime_case()`,
    )
    .execute(ctx.db)
  return async () => {
    await sql.raw('DROP TRIGGER fail_chime_case ON intake_cases').execute(ctx.db)
    await sql.raw('DROP FUNCTION fail_chime_case()').execute(ctx.db)
  }
}

/** A time as the CSVs write it: Los Angeles' wall clock to the second, as Intl gives it (Sweden's format). */
function losAngeles(iso: string): string {
  return new Date(iso).toLocaleString('sv-SE', { timeZone: 'America/Los_Angeles' })
}

function iso(value: Date | string): string {
  return new Date(value).toISOString()
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: main intake`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearIntakes(ctx)
    })

    describe('GET /api/intake/config', () => {
      it('returns forms/intake.json: the apps and fee types come from it', async () => {
        const res = await request(ctx.app).get('/api/intake/config').expect(200)
        // with the languages it is offered in, every text of it being translated
        expect(res.body).toEqual({
          ...JSON.parse(fs.readFileSync(INTAKE_FILE, 'utf8')),
          languages: ['en', 'es'],
        })
        expect(intakeAppChoices(res.body)).toEqual([
          { value: 'earnin', label: 'Earnin' },
          { value: 'chime', label: 'Chime' },
          { value: 'moneylion', label: 'MoneyLion' },
          { value: 'floatme', label: 'FloatMe' },
        ])
        expect(res.body.schema.properties.feesIncurred.items.enum).toEqual([
          'Subscription Fee',
          'Instant Transfer Fee',
          'Tips',
        ])
        expect(res.body.closedApps).toEqual({})
      })

      it('serves the precompiled validator of the form as drawn at /api/intake/validator.js', async () => {
        const res = await request(ctx.app).get('/api/intake/validator.js').expect(200)
        expect(res.headers['content-type']).toMatch(/^text\/javascript/)
        expect(res.text).toContain('validateFns')
      })
    })

    describe('POST /api/intake', () => {
      it('stores a valid intake, normalised, and one case per chosen app', async () => {
        const res = await postIntake(ctx, makeIntakeData()).expect(201)
        expect(res.body).toEqual({
          id: expect.any(Number),
          createdAt: expect.any(String),
          reference: `IN-${String(res.body.id).padStart(6, '0')}`,
          steps: [
            { app: 'earnin', appName: 'Earnin', path: expect.stringMatching(/^\/earnin#prefill=/) },
            { app: 'chime', appName: 'Chime', path: expect.stringMatching(/^\/chime#prefill=/) },
          ],
        })
        const { id, createdAt } = res.body as { id: number; createdAt: string }
        expect(iso(createdAt)).toBe(createdAt)

        const rows = await ctx.db.selectFrom('form_submissions').selectAll().execute()
        expect(rows).toHaveLength(1)
        const row = rows[0]!
        const consents = intakeConsentTexts(ctx.intake)
        expect(consents.main).toMatch(/^I agree to the Attorney-Client Agreement/)
        expect({ ...row, id: Number(row.id), created_at: iso(row.created_at) }).toEqual({
          id,
          created_at: createdAt,
          cash_advance_apps: '["earnin","chime"]',
          fees_incurred: '["Subscription Fee","Tips"]',
          is_over_18: 1,
          is_active_military: 0,
          has_bankruptcy: 0,
          first_name: 'Jane',
          last_name: 'Doe',
          email: 'jane.doe@example.com',
          phone: '(808) 555-0100',
          address: '123 Kalakaua Ave',
          address_line_2: '',
          city: 'Honolulu',
          state: 'HI',
          zip_code: '96815',
          signature: SIGNATURE,
          consent_agreed: 1,
          communications_consent: 1,
          consent_version: ctx.intake.consentVersion,
          consent_text: consents.main,
          communications_consent_text: consents.communications,
          legal_hold: 0,
          locale: 'en',
          agreement_template: 'full',
          agreement_template_version: TEMPLATES.version,
          agreement_html: expect.stringContaining('Jane Doe'),
          agreement_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          ip_address: expect.any(String),
          user_agent: expect.any(String),
          signature_method: 'drawn',
          typed_signature: null,
          // not yet answered from the e-mail after it
          confirmed_at: null,
          confirmed_ip: null,
          confirmed_user_agent: null,
          disowned_at: null,
          disowned_ip: null,
          disowned_user_agent: null,
          // a landing without campaign parameters: no source
          source: '(none)',
          attribution: null,
          // sent by the intake page (form-signals.ts); this request, as an old client, sends none
          signals: null,
        })
        expect(row.agreement_sha256).toBe(
          crypto.createHash('sha256').update(row.agreement_html).digest('hex'),
        )
        expect(row.agreement_html).toContain('Earnin and Chime')
        const file = JSON.parse(fs.readFileSync(INTAKE_FILE, 'utf8'))
        expect(row.consent_version).toBe(file.consentVersion)
        expect(row.consent_text).toBe(file.schema.properties.consentAgreed.title)
        expect(row.communications_consent_text).toBe(file.schema.properties.communicationsConsent.title)
        expect(JSON.parse(row.cash_advance_apps)).toEqual(['earnin', 'chime'])
        expect(JSON.parse(row.fees_incurred)).toEqual(['Subscription Fee', 'Tips'])

        const cases = await ctx.db.selectFrom('intake_cases').selectAll().orderBy('id').execute()
        expect(cases.map((c) => c.app)).toEqual(['earnin', 'chime'])
        for (const c of cases) {
          expect({
            ...c,
            id: undefined,
            original_submission_id: Number(c.original_submission_id),
            created_at: iso(c.created_at),
          }).toEqual({
            id: undefined,
            original_submission_id: id,
            app: c.app,
            created_at: createdAt,
            first_name: 'Jane',
            last_name: 'Doe',
            email: 'jane.doe@example.com',
            phone: '(808) 555-0100',
            address: '123 Kalakaua Ave',
            address_line_2: '',
            city: 'Honolulu',
            state: 'HI',
            zip_code: '96815',
            fees_incurred: '["Subscription Fee","Tips"]',
            is_over_18: 1,
            is_active_military: 0,
            has_bankruptcy: 0,
            signature: SIGNATURE,
            consent_agreed: 1,
          })
        }
      })

      it('keeps a formatted phone as it is, trims the texts, stores address line 2 and the other answers', async () => {
        await postIntake(
          ctx,
          makeIntakeData({
            cashAdvanceApps: ['moneylion'],
            feesIncurred: ['Instant Transfer Fee'],
            isOver18: false,
            isActiveMilitary: true,
            hasBankruptcy: true,
            firstName: '  Ana ',
            lastName: ' Lee  ',
            phone: '(808) 555-0100',
            address: ' 1 Main St ',
            addressLine2: ' Apt 4 ',
            city: ' Hilo ',
            zipCode: '96720-1234',
            communicationsConsent: false,
          }),
        ).expect(201)
        const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
        expect(row).toMatchObject({
          cash_advance_apps: '["moneylion"]',
          fees_incurred: '["Instant Transfer Fee"]',
          is_over_18: 0,
          is_active_military: 1,
          has_bankruptcy: 1,
          first_name: 'Ana',
          last_name: 'Lee',
          phone: '(808) 555-0100',
          address: '1 Main St',
          address_line_2: 'Apt 4',
          city: 'Hilo',
          zip_code: '96720-1234',
          communications_consent: 0,
        })
        const cases = await ctx.db.selectFrom('intake_cases').selectAll().execute()
        expect(cases).toHaveLength(1)
        expect(cases[0]).toMatchObject({ app: 'moneylion', address_line_2: 'Apt 4', is_active_military: 1 })
      })

      it('stores the communications consent as not given when its box is left unticked, and seals it so with its text', async () => {
        // an unticked box the claimant never touched sends nothing; one ticked and unticked sends false
        for (const communicationsConsent of [undefined, false]) {
          await clearIntakes(ctx)
          const created = await postIntake(ctx, makeIntakeData({ communicationsConsent })).expect(201)
          const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
          expect(row.communications_consent).toBe(0)
          const record = intakeRecordFromRow(row)
          expect(record.fields).toMatchObject({ consentAgreed: true, communicationsConsent: false })
          expect(record.consent).toEqual({
            version: ctx.intake.consentVersion,
            text: intakeConsentTexts(ctx.intake).main,
            communicationsText: intakeConsentTexts(ctx.intake).communications,
          })
          const sealed = await ctx.db
            .selectFrom('evidence_ledger')
            .select('seal')
            .where('subject', '=', `intake:${created.body.id}`)
            .executeTakeFirstOrThrow()
          expect(sealed.seal).toBe(sealOf(record))
        }
      })

      it('refuses an intake whose agreement consent is not ticked with 422 naming it, and stores nothing', async () => {
        for (const consentAgreed of [undefined, false]) {
          const res = await postIntake(ctx, makeIntakeData({ consentAgreed })).expect(422)
          expect(res.body.error.message).toBe(
            `${intakeConsentTexts(ctx.intake).main}: You must agree to the terms`,
          )
          expect(res.body.error.fields).toEqual({
            consentAgreed: { __errors: ['You must agree to the terms'] },
          })
          expect(await counts(ctx)).toEqual({ intakes: 0, cases: 0 })
        }
      })

      it('makes one case for each of the four apps', async () => {
        await postIntake(
          ctx,
          makeIntakeData({ cashAdvanceApps: ['floatme', 'moneylion', 'chime', 'earnin'] }),
        ).expect(201)
        const cases = await ctx.db.selectFrom('intake_cases').select('app').orderBy('id').execute()
        expect(cases.map((c) => c.app)).toEqual(['floatme', 'moneylion', 'chime', 'earnin'])
      })

      describe('validation (the main form messages)', () => {
        afterEach(async () => {
          expect(await counts(ctx)).toEqual({ intakes: 0, cases: 0 })
        })

        it.each(RULES)(
          '$rule → 422 "$message" on $field, nothing stored',
          async ({ field, change, message }) => {
            const res = await postIntake(ctx, makeIntakeData(change))
            expect(res.status).toBe(422)
            expect(res.body.error.code).toBe('VALIDATION_FAILED')
            expect(res.body.error.fields[field].__errors[0]).toBe(message)
            expect(Object.keys(res.body.error.fields)).toEqual([field])
          },
        )

        it('gives every message at once for an empty form', async () => {
          const res = await postIntake(ctx, {})
          expect(res.status).toBe(422)
          expect(res.body.error.fields).toEqual(EMPTY_FORM_ERRORS)
        })

        it('refuses an unknown app, naming cashAdvanceApps', async () => {
          const res = await postIntake(ctx, makeIntakeData({ cashAdvanceApps: ['earnin', 'brigit'] }))
          expect(res.status).toBe(422)
          expect(res.body.error.fields).toEqual({
            cashAdvanceApps: { __errors: ['Please choose from the apps listed'] },
          })
        })

        it('refuses the same app twice, naming cashAdvanceApps', async () => {
          const res = await postIntake(ctx, makeIntakeData({ cashAdvanceApps: ['earnin', 'earnin'] }))
          expect(res.status).toBe(422)
          expect(Object.keys(res.body.error.fields)).toEqual(['cashAdvanceApps'])
        })

        it('refuses an unknown fee type, naming feesIncurred', async () => {
          const res = await postIntake(ctx, makeIntakeData({ feesIncurred: ['Overdraft Fee'] }))
          expect(res.status).toBe(422)
          expect(Object.keys(res.body.error.fields)).toEqual(['feesIncurred'])
        })

        it('refuses an unknown extra field, naming it', async () => {
          const res = await postIntake(ctx, makeIntakeData({ favouriteColour: 'blue' }))
          expect(res.status).toBe(422)
          expect(res.body.error.fields).toEqual({
            favouriteColour: { __errors: ['"favouriteColour" is not a field of this form'] },
          })
        })

        it('refuses a phone without ten digits, naming phone', async () => {
          const res = await postIntake(ctx, makeIntakeData({ phone: '808555' }))
          expect(res.status).toBe(422)
          expect(Object.keys(res.body.error.fields)).toEqual(['phone'])
        })

        it('refuses a body that is not an object with 400', async () => {
          const res = await postIntake(ctx, [makeIntakeData()])
          expect(res.status).toBe(400)
          expect(res.body.error.code).toBe('BAD_REQUEST')
        })
      })
    })

    describe('duplicates (same lowercased, trimmed e-mail AND same phone)', () => {
      it('refuses the same e-mail, in another case and with spaces, with the same phone: 409', async () => {
        await postIntake(ctx, makeIntakeData()).expect(201)
        const res = await postIntake(
          ctx,
          makeIntakeData({
            email: 'JANE.DOE@example.com   ',
            phone: '(808) 555-0100',
            cashAdvanceApps: ['floatme'],
          }),
        )
        expect(res.status).toBe(409)
        expect(res.body.error).toEqual({ code: 'DUPLICATE_SUBMISSION', message: DUPLICATE_MESSAGE })
        expect(await counts(ctx)).toEqual({ intakes: 1, cases: 2 })
        // the returning claimant's link to their claims, to the address as stored
        await ctx.agreementLinks.settled()
        expect(linkMailsTo(ctx.dataDir, 'jane.doe@example.com')).toHaveLength(1)
      })

      it('accepts the same e-mail with another phone, and the same phone with another e-mail', async () => {
        await postIntake(ctx, makeIntakeData()).expect(201)
        await postIntake(ctx, makeIntakeData({ phone: '8085550101' })).expect(201)
        await postIntake(ctx, makeIntakeData({ email: 'john.doe@example.com' })).expect(201)
        expect(await counts(ctx)).toEqual({ intakes: 3, cases: 6 })
      })

      it('stores one of 20 parallel identical submissions and answers 409 to the others', async () => {
        const data = makeIntakeData()
        const answers = await Promise.all(Array.from({ length: 20 }, () => postIntake(ctx, data)))
        const statuses = answers.map((res) => res.status).sort()
        expect(statuses).toEqual([201, ...Array<number>(19).fill(409)])
        for (const res of answers.filter((answer) => answer.status === 409)) {
          expect(res.body.error.message).toBe(DUPLICATE_MESSAGE)
        }
        const winner = answers.find((res) => res.status === 201)!.body as { id: number }
        expect(await counts(ctx)).toEqual({ intakes: 1, cases: 2 })
        const cases = await ctx.db.selectFrom('intake_cases').select('original_submission_id').execute()
        expect(cases.map((c) => Number(c.original_submission_id))).toEqual([winner.id, winner.id])
      })
    })

    describe('all or nothing', () => {
      it('stores nothing when one case insert fails: 500, no intake row, no case rows', async () => {
        const undo = await failChimeCases(ctx, dialect)
        try {
          const res = await postIntake(ctx, makeIntakeData({ cashAdvanceApps: ['earnin', 'chime'] }))
          expect(res.status).toBe(500)
          expect(res.body.error.code).toBe('INTERNAL_ERROR')
          expect(JSON.stringify(res.body)).not.toContain('forced')
          expect(await counts(ctx)).toEqual({ intakes: 0, cases: 0 })
          // the failed try left nothing behind: the same claimant can still submit, and is not a duplicate
          await postIntake(ctx, makeIntakeData({ cashAdvanceApps: ['earnin'] })).expect(201)
          expect(await counts(ctx)).toEqual({ intakes: 1, cases: 1 })
        } finally {
          await undo()
        }
      })
    })

    describe('a closed app', () => {
      let closed: TestContext
      let formsDir: string
      const NOTICE = {
        heading: 'FloatMe Intake Closed',
        subheading: 'We will be in touch shortly',
        body: 'We are no longer taking FloatMe claims.',
      }

      beforeAll(async () => {
        formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-forms-'))
        fs.cpSync(FORMS_DIR, formsDir, { recursive: true })
        const config = JSON.parse(fs.readFileSync(INTAKE_FILE, 'utf8')) as Record<string, unknown>
        config.closedApps = { floatme: NOTICE }
        fs.writeFileSync(path.join(formsDir, 'intake.json'), JSON.stringify(config, null, 2))
        addSpanishTexts(formsDir, {
          [NOTICE.heading]: 'Formulario de FloatMe cerrado',
          [NOTICE.body]: 'Ya no aceptamos reclamos de FloatMe.',
        })
        closed = await createTestContext(dialect, { formsDir })
      })
      afterAll(async () => {
        await closed?.close()
        if (formsDir) fs.rmSync(formsDir, { recursive: true, force: true })
      })

      it('shows the closed app in the config', async () => {
        const res = await request(closed.app).get('/api/intake/config').expect(200)
        expect(res.body.closedApps).toEqual({ floatme: NOTICE })
      })

      it('refuses an intake choosing it with 422 naming cashAdvanceApps, and stores nothing', async () => {
        const res = await postIntake(closed, makeIntakeData({ cashAdvanceApps: ['earnin', 'floatme'] }))
        expect(res.status).toBe(422)
        expect(res.body.error.code).toBe('FORM_CLOSED')
        expect(res.body.error.fields).toEqual({ cashAdvanceApps: { __errors: [NOTICE.heading] } })
        expect(await counts(closed)).toEqual({ intakes: 0, cases: 0 })
      })

      it('still takes the open apps', async () => {
        await postIntake(closed, makeIntakeData({ cashAdvanceApps: ['earnin', 'moneylion'] })).expect(201)
        expect(await counts(closed)).toEqual({ intakes: 1, cases: 2 })
      })
    })

    describe('staff', () => {
      let cookie: string

      beforeAll(async () => {
        cookie = await loginStaff(ctx.app, { site: SITE })
      })

      const staffGet = (url: string) => request(ctx.app).get(url).set(SAME_SITE).set('Cookie', cookie)

      describe('GET /api/staff/military', () => {
        it('answers 401 without a session', async () => {
          const res = await request(ctx.app).get('/api/staff/military').set(SAME_SITE)
          expect(res.status).toBe(401)
          expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } })
        })

        it('lists the active-military claimants, newest first, to admins only', async () => {
          await request(ctx.app).get('/api/staff/military/claimants').set(SAME_SITE).expect(401)
          const before = (await staffGet('/api/staff/military/claimants').expect(200)).body as {
            claimants: { email: string; state: string }[]
            total: number
          }
          await postIntake(
            ctx,
            makeIntakeData({ email: 'sgt.list@example.com', isActiveMilitary: true }),
          ).expect(201)
          await postIntake(ctx, makeIntakeData({ email: 'civilian.list@example.com' })).expect(201)
          const res = await staffGet('/api/staff/military/claimants').expect(200)
          expect(res.headers['cache-control']).toBe('private, no-store')
          expect(res.body.total).toBe(before.total + 1)
          expect(res.body.claimants[0]).toMatchObject({ email: 'sgt.list@example.com' })
          expect(
            (res.body.claimants as { email: string }[]).some(
              ({ email }) => email === 'civilian.list@example.com',
            ),
          ).toBe(false)
        })

        it('gives 0 / 0 / 0 with no intakes', async () => {
          const res = await staffGet('/api/staff/military').expect(200)
          expect(res.body).toEqual({ activeMilitary: 0, total: 0, percentage: 0 })
        })

        it('gives the three figures only, the percentage to one decimal', async () => {
          await postIntake(ctx, makeIntakeData({ email: 'a@example.com', isActiveMilitary: true })).expect(
            201,
          )
          await postIntake(ctx, makeIntakeData({ email: 'b@example.com' })).expect(201)
          await postIntake(ctx, makeIntakeData({ email: 'c@example.com' })).expect(201)
          const res = await staffGet('/api/staff/military').expect(200)
          expect(res.body).toEqual({ activeMilitary: 1, total: 3, percentage: 33.3 })
          expect(Object.keys(res.body).sort()).toEqual(['activeMilitary', 'percentage', 'total'])
          expect(res.headers['cache-control']).toBe('private, no-store')

          await postIntake(ctx, makeIntakeData({ email: 'd@example.com', isActiveMilitary: true })).expect(
            201,
          )
          await postIntake(ctx, makeIntakeData({ email: 'e@example.com', isActiveMilitary: true })).expect(
            201,
          )
          await postIntake(ctx, makeIntakeData({ email: 'f@example.com', isActiveMilitary: true })).expect(
            201,
          )
          const more = await staffGet('/api/staff/military').expect(200)
          expect(more.body).toEqual({ activeMilitary: 4, total: 6, percentage: 66.7 })
        })
      })

      describe('GET /api/staff/intake-submissions', () => {
        it('answers 401 without a session', async () => {
          await request(ctx.app).get('/api/staff/intake-submissions').set(SAME_SITE).expect(401)
          await request(ctx.app).get('/api/staff/intake-submissions/export.csv').set(SAME_SITE).expect(401)
        })

        it('lists the intakes newest first with the apps as labels, paginated', async () => {
          const first = await postIntake(
            ctx,
            makeIntakeData({ email: 'one@example.com', cashAdvanceApps: ['earnin'] }),
          ).expect(201)
          const second = await postIntake(
            ctx,
            makeIntakeData({
              email: 'two@example.com',
              firstName: 'Two',
              cashAdvanceApps: ['chime', 'moneylion'],
            }),
          ).expect(201)
          const third = await postIntake(
            ctx,
            makeIntakeData({
              email: 'three@example.com',
              firstName: 'Three',
              lastName: 'Kai',
              cashAdvanceApps: ['floatme'],
            }),
          ).expect(201)

          const res = await staffGet('/api/staff/intake-submissions').expect(200)
          expect(res.body).toMatchObject({
            success: true,
            count: 3,
            total: 3,
            page: 1,
            pageSize: 50,
            error: null,
          })
          expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([
            third.body.id,
            second.body.id,
            first.body.id,
          ])
          expect(res.body.data[0]).toEqual({
            id: third.body.id,
            createdAt: third.body.createdAt,
            firstName: 'Three',
            lastName: 'Kai',
            email: 'three@example.com',
            phone: '(808) 555-0100',
            cashAdvanceApps: ['FloatMe'],
            signature: SIGNATURE,
            confirmation: 'not_confirmed',
          })
          expect(res.body.data[1].cashAdvanceApps).toEqual(['Chime', 'MoneyLion'])
          expect(res.body.data[2].cashAdvanceApps).toEqual(['Earnin'])

          const page1 = await staffGet('/api/staff/intake-submissions?page=1&pageSize=2').expect(200)
          expect(page1.body).toMatchObject({ count: 3, total: 3, page: 1, pageSize: 2 })
          expect(page1.body.data.map((row: { id: number }) => row.id)).toEqual([
            third.body.id,
            second.body.id,
          ])
          const page2 = await staffGet('/api/staff/intake-submissions?page=2&pageSize=2').expect(200)
          expect(page2.body.data.map((row: { id: number }) => row.id)).toEqual([first.body.id])
          const page3 = await staffGet('/api/staff/intake-submissions?page=3&pageSize=2').expect(200)
          expect(page3.body.data).toEqual([])
        })

        it('exports one CSV line per intake and chosen app, with its Step 2 status', async () => {
          const jane = await postIntake(ctx, makeIntakeData({ cashAdvanceApps: ['earnin', 'chime'] })).expect(
            201,
          )
          const sam = await postIntake(
            ctx,
            makeIntakeData({
              firstName: 'Sam',
              lastName: 'Rivers',
              email: 'Sam@Example.com',
              phone: '2125550199',
              cashAdvanceApps: ['moneylion'],
            }),
          ).expect(201)
          const claim = {
            created_at: new Date().toISOString(),
            first_name: 'Jane',
            last_name: 'Doe',
            email: 'jane.doe@example.com',
            cash_advance_count: 3,
            membership_months: 6,
            screenshot_key: 'earnin-screenshots/missing.png',
            screenshot_type: 'image/png',
          }
          await ctx.db
            .insertInto('claims')
            .values([
              // Jane's earnin Step 2, tied to her intake (as the claim path ties it) → submitted
              { ...claim, app: 'earnin', phone_number: '(808) 555-0100', intake_id: jane.body.id },
              // another claimant's chime Step 2: Jane's chime stays not submitted
              { ...claim, app: 'chime', phone_number: '(808) 555-0199' },
              // Jane's claim on an app she did not choose on the main form: no line of its own
              { ...claim, app: 'brigit', phone_number: '(808) 555-0100', intake_id: jane.body.id },
            ])
            .execute()

          const res = await staffGet('/api/staff/intake-submissions/export.csv').expect(200)
          expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
          expect(res.headers['content-disposition']).toMatch(/app-submissions-view\.csv/)
          expect(res.text.split('\r\n')).toEqual([
            `\ufeff${CSV_HEADER}`,
            `Sam Rivers,sam@example.com,(212) 555-0199,MoneyLion,${losAngeles(sam.body.createdAt)},America/Los_Angeles,MoneyLion,not submitted`,
            `Jane Doe,jane.doe@example.com,(808) 555-0100,Earnin; Chime,${losAngeles(jane.body.createdAt)},America/Los_Angeles,Chime,not submitted`,
            `Jane Doe,jane.doe@example.com,(808) 555-0100,Earnin; Chime,${losAngeles(jane.body.createdAt)},America/Los_Angeles,Earnin,submitted`,
            '',
          ])
        })
      })
    })
  })
}
