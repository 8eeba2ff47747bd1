import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { PayoutBatchBuilt, PayoutReconciliation, PayoutsPage } from '../src/api/payouts.ts'
import { createDb } from '../server/db/create-db.ts'
import { loadPaymentsKey } from '../server/payouts/sealed-numbers.ts'
import { createAccount } from '../server/staff/staff-accounts.ts'
import { runSeed } from '../scripts/seed/run-seed.ts'
import { compileProductForTests, productScript } from '../tests/server/support/compiled-product.ts'
import { startPayPalStandIn } from '../tests/server/support/paypal-stand-in.ts'
import { loginAsStaff, postJson, request } from './http.ts'
import { awardCsv, preparePayees, type BenchPayee } from './payout-claimants.ts'
import { readRss, startPostgres, startProductServer } from './processes.ts'
import { count, formatTable, mib, type ResultRow } from './report.ts'

// npm run bench:payouts -- [--claimants N] [--postgres] [--compiled] [--keep] [--max-minutes M]: seeds N Brigit claims
// (10,000 by default; signed agreements stating the firm's fee) in SQLite, or a throw-away PostgreSQL
// with --postgres, makes them filed with a case number, and writes each claimant's payment choice (PayPal
// 40 %, Venmo 20 %, ACH 25 %, check 15 %) and, for nine in ten, a W-9, straight into the database with
// sealNumber as the claimant's routes store them: those routes take one request per claimant, and the
// bench times the staff's side. Then it starts a PayPal stand-in on 127.0.0.1 (settling each batch as it
// is made and posting signed webhooks back to the server) and the product pointed at it, imports the
// awards through the award import route, and times through the HTTP API: account A builds one batch of
// all N, account B approves it, and the bench waits until the send job has sent every item and the
// webhooks have marked every PayPal and Venmo payment paid. Reports the build, approval-to-sent and
// total seconds, the server's peak resident memory, and the reconciliation's difference. Every request
// goes to 127.0.0.1; the bench stops itself after --max-minutes. Started from source (tsx), the server
// holds 70-120 MB more before the build than compiled; --compiled runs it as `npm run start:prod` does,
// as bench:filing.
const { values } = parseArgs({
  options: {
    claimants: { type: 'string', default: '10000' },
    postgres: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    compiled: { type: 'boolean', default: false },
    'max-minutes': { type: 'string', default: '10' },
  },
})
const claimants = Number(values.claimants)
if (!Number.isInteger(claimants) || claimants < 100 || claimants > 15_000) {
  // one PayPal batch takes 15,000 items at most; the bench measures one batch
  throw new Error('--claimants takes a whole number from 100 to 15,000')
}
const maxMinutes = Number(values['max-minutes'])
if (!(maxMinutes > 0)) throw new Error('--max-minutes takes a number of minutes above 0')
const deadline = Date.now() + maxMinutes * 60_000
// the wait loops stop at the deadline; this ends a step that hangs (processes.ts kills the children)
setTimeout(
  () => {
    console.error(`the bench ran past --max-minutes ${maxMinutes} and a minute: stopped`)
    process.exit(1)
  },
  (maxMinutes + 1) * 60_000,
).unref()

const APP = 'brigit'
// the budgets, for 10,000 claimants
const TOTAL_BUDGET_S = 120
const MEMORY_BUDGET = 500 * 1024 * 1024
const POLL_MS = 500

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-payouts-bench-'))
const dataDir = path.join(workDir, 'data')
const postgres = values.postgres ? await startPostgres() : undefined
const databaseUrl = postgres?.url
const standIn = await startPayPalStandIn({ settleOnCreate: true })
let stopServer: (() => Promise<void>) | undefined
let sampler: NodeJS.Timeout | undefined
try {
  await runSeed({ claims: claimants, dataDir, databaseUrl, hotApp: APP, hotShare: 1, agreementEvery: 1 })
  const accounts = { maker: 'payments.maker@firm.test', checker: 'payments.checker@firm.test' }
  const password = crypto.randomBytes(12).toString('base64url')
  const payees = await preparePayments({ accounts, password })
  const adminPassword = crypto.randomBytes(12).toString('base64url')
  let compiledStart: string | undefined
  if (values.compiled) {
    console.log('compiling the server (tsc)…')
    await compileProductForTests()
    compiledStart = productScript('server/start')[0]
  }
  console.log(
    `starting the product (${compiledStart ? 'compiled' : 'from source'}, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}), PayPal at ${standIn.url}…`,
  )
  const server = await startProductServer({
    dataDir,
    compiledStart,
    databaseUrl,
    adminPassword,
    logFile: path.join(workDir, 'server.log'),
    env: {
      PAYPAL_BASE_URL: standIn.url,
      PAYPAL_CLIENT_ID: standIn.clientId,
      PAYPAL_CLIENT_SECRET: standIn.clientSecret,
      PAYPAL_WEBHOOK_ID: standIn.webhookId,
      ACH_ORIGIN_ROUTING: '021000021',
      ACH_ORIGIN_ACCOUNT: '5550001112',
      ACH_COMPANY_NAME: 'Example Firm LLP',
      ACH_COMPANY_ID: '1234567890',
    },
  })
  stopServer = server.stop
  standIn.webhookUrl = `${server.url}/api/payouts/paypal/webhook`
  const admin = await loginAsStaff(server.url, adminPassword)
  const maker = await signIn(server.url, accounts.maker, password)
  const checker = await signIn(server.url, accounts.checker, password)
  const send = (method: string, url: string, cookie: string, body?: string, type = 'application/json') =>
    request(`${server.url}${url}`, {
      method,
      headers: {
        Cookie: cookie,
        Origin: server.url,
        ...(body === undefined ? {} : { 'Content-Type': type }),
      },
      ...(body === undefined ? {} : { body }),
      newConnection: true,
    })
  const json = <T>(answer: { status: number; body: Buffer }, expected: number, what: string): T => {
    if (answer.status !== expected)
      throw new Error(`${what} answered ${answer.status}: ${answer.body.toString().slice(0, 500)}`)
    return JSON.parse(answer.body.toString()) as T
  }

  console.log(`importing ${count(claimants)} awards through the award import route…`)
  json(
    await send('POST', `/api/staff/apps/${APP}/awards/import`, admin, awardCsv(payees), 'text/csv'),
    200,
    'the award import',
  )

  const paidByPayPal = payees.filter((payee) => payee.method === 'paypal' || payee.method === 'venmo').length
  console.log(`one payout batch of ${count(claimants)} claimants, built by A, approved by B…`)
  const baseRss = readRss(server.pid)
  let peakRss = baseRss
  sampler = setInterval(() => (peakRss = Math.max(peakRss, readRss(server.pid))), 250)
  const began = performance.now()
  const built = json<PayoutBatchBuilt>(
    await send(
      'POST',
      `/api/staff/apps/${APP}/payouts`,
      maker,
      JSON.stringify({ costs: dollars(claimants * 150) }),
    ),
    201,
    'building the batch',
  )
  const buildSeconds = (performance.now() - began) / 1000
  if (built.totals.count !== claimants) {
    throw new Error(
      `the batch took ${built.totals.count} claims of ${claimants}; left out: ${built.leftOut.length}`,
    )
  }
  const approvedAt = performance.now()
  json(await send('POST', `/api/staff/payout-batches/${built.batchId}/approve`, checker), 200, 'the approval')
  let sentSeconds: number | undefined
  let statuses: Record<string, number> = {}
  let settledPolls = 0
  for (;;) {
    if (Date.now() > deadline) {
      throw new Error(`not paid after --max-minutes ${maxMinutes}: items ${JSON.stringify(statuses)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const page = json<PayoutsPage>(
      await send('GET', `/api/staff/apps/${APP}/payouts`, checker),
      200,
      'the payouts page',
    )
    const batch = page.batches.find((each) => each.id === built.batchId)
    statuses = batch?.itemStatuses ?? {}
    if (sentSeconds === undefined && batch?.status === 'sent' && !statuses.pending) {
      sentSeconds = (performance.now() - approvedAt) / 1000
    }
    if (sentSeconds !== undefined && (statuses.paid ?? 0) >= paidByPayPal) break
    // every webhook answered and still items unpaid: the server set aside events that came before the
    // send job recorded their item sent; waiting longer changes nothing
    const isAnswered = standIn.webhooks.length >= paidByPayPal && standIn.webhooks.every((w) => w.status)
    if (sentSeconds !== undefined && isAnswered && (settledPolls += 1) > 2) break
  }
  const paidSeconds = (performance.now() - approvedAt) / 1000
  const paid = statuses.paid ?? 0
  const totalSeconds = (performance.now() - began) / 1000
  clearInterval(sampler)
  const reconciliation = json<PayoutReconciliation>(
    await send('GET', `/api/staff/apps/${APP}/payouts/reconciliation`, maker),
    200,
    'the reconciliation',
  )
  const webhookFailures = standIn.webhooks.filter((webhook) => webhook.status !== 200).length
  const methods = (['paypal', 'venmo', 'ach', 'check'] as const)
    .map((method) => `${method} ${count(payees.filter((payee) => payee.method === method).length)}`)
    .join(', ')
  const scale = claimants / 10_000
  const rows: ResultRow[] = [
    {
      benchmark: `payout batch of ${count(claimants)} claimants (${methods}; ${count(payees.filter((payee) => !payee.hasTaxForm).length)} without a W-9), ${databaseUrl ? 'PostgreSQL' : 'SQLite'}: build`,
      figure: `${buildSeconds.toFixed(1)} s`,
      budget: 'information',
    },
    {
      benchmark: 'approval to every item sent (send job: checks, ACH, PayPal)',
      figure: `${sentSeconds!.toFixed(1)} s`,
      budget: 'information',
    },
    {
      benchmark: `approval to every PayPal and Venmo payment paid (${count(paidByPayPal)} webhooks, ${webhookFailures} not answered 200)`,
      figure:
        paid === paidByPayPal
          ? `${paidSeconds.toFixed(1)} s`
          : `${count(paid)} of ${count(paidByPayPal)} paid after ${paidSeconds.toFixed(1)} s: the webhooks of the others came before the send job recorded their item sent, and were set aside`,
      budget: 'every one paid',
      isWithinBudget: paid === paidByPayPal,
    },
    {
      benchmark: 'build to every payment paid, in all',
      figure: `${totalSeconds.toFixed(1)} s`,
      // the budget is for 10,000 claimants; a smaller run is held to its share
      budget: `≤ ${(TOTAL_BUDGET_S * scale).toFixed(scale < 1 ? 1 : 0)} s`,
      isWithinBudget: paid === paidByPayPal && totalSeconds <= TOTAL_BUDGET_S * scale,
    },
    {
      benchmark: `server resident memory from the build to the last payment (all its processes, ${compiledStart ? 'compiled' : 'from source'})`,
      figure: `peak ${mib(peakRss)} (${mib(baseRss)} before)`,
      budget: `≤ ${mib(MEMORY_BUDGET)}`,
      isWithinBudget: peakRss <= MEMORY_BUDGET,
    },
    {
      benchmark: 'reconciliation: trust entries against awards and items',
      figure: `${reconciliation.differenceCents} cents`,
      budget: '0 cents',
      isWithinBudget: reconciliation.differenceCents === 0,
    },
  ]
  console.log(`\n${formatTable(rows)}`)
} finally {
  // a stopped server has no /proc entry left to sample
  clearInterval(sampler)
  await stopServer?.()
  await standIn.close()
  await postgres?.stop()
  if (values.keep) console.log(`kept ${workDir}`)
  else fs.rmSync(workDir, { recursive: true, force: true })
}

/**
 * With the server not yet started: the payments key the server will read (DATA_DIR/payments.key, made
 * here first), the claims filed with their choices and W-9s, and accounts A and B, each with the app's
 * payments right and nothing else.
 */
async function preparePayments({
  accounts,
  password,
}: {
  accounts: { maker: string; checker: string }
  password: string
}): Promise<BenchPayee[]> {
  const paymentsKey = loadPaymentsKey({ setting: process.env.PAYMENTS_KEY?.trim() || undefined, dataDir })
  const { db } = createDb({ databaseUrl, dataDir })
  try {
    const payees = await preparePayees({ db, app: APP, paymentsKey })
    for (const [name, email] of Object.entries(accounts)) {
      await createAccount(db, {
        email,
        name: `Payments ${name}`,
        role: 'staff',
        apps: [{ app: APP, canExport: false, canPay: true }],
        password,
      })
    }
    return payees
  } finally {
    await db.destroy()
  }
}

async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await postJson(`${baseUrl}/api/staff/login`, { email, password }, { Origin: baseUrl })
  const cookie = [answer.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('staff_session='))
  if (answer.status !== 204 || !cookie) {
    throw new Error(`${email} signing in answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`)
  }
  return cookie
}

function dollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}
