import { parseArgs } from 'node:util'
import { DEMO_CLAIMS, runSeed } from './seed/run-seed.ts'

// npm run seed -- [--claims N] [--data-dir DIR] [--database-url postgres://…] [--hot-app SLUG]
//                 [--hot-share 0.9] [--agreements-every K]
const USAGE =
  'usage: npm run seed -- [--claims N] [--data-dir DIR] [--database-url postgres://…] ' +
  '[--hot-app SLUG] [--hot-share 0..1] [--agreements-every K (0 = none)]'

try {
  const { values } = parseArgs({
    options: {
      claims: { type: 'string', default: String(DEMO_CLAIMS) },
      'data-dir': { type: 'string', default: process.env.DATA_DIR ?? 'data' },
      'database-url': { type: 'string', default: process.env.DATABASE_URL },
      'forms-dir': { type: 'string', default: process.env.FORMS_DIR ?? 'forms' },
      'hot-app': { type: 'string' },
      'hot-share': { type: 'string' },
      'agreements-every': { type: 'string' },
    },
  })
  const claims = wholeNumber(values.claims, 'claims')
  const hotShare = values['hot-share'] === undefined ? undefined : Number(values['hot-share'])
  if (hotShare !== undefined && !(hotShare >= 0 && hotShare <= 1)) throw new Error('--hot-share must be 0..1')
  await runSeed({
    claims,
    dataDir: values['data-dir'],
    databaseUrl: values['database-url']?.trim() || undefined,
    formsDir: values['forms-dir'],
    hotApp: values['hot-app'],
    hotShare,
    agreementEvery:
      values['agreements-every'] === undefined
        ? undefined
        : wholeNumber(values['agreements-every'], 'agreements-every'),
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  console.error(USAGE)
  process.exit(1)
}

function wholeNumber(value: string | undefined, name: string): number {
  const number = Number(value)
  if (!Number.isSafeInteger(number) || number < 0)
    throw new Error(`--${name} must be a whole number, got "${value}"`)
  return number
}
