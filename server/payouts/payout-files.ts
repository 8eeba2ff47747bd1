import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import type { Database } from '../db/database.ts'
import { readBatchClaims } from '../filing/batch-claims.ts'
import { missingAchSettings, type AchSettings } from './payout-settings.ts'
import { buildCheckRegister, type CheckPayment } from './providers/check-register.ts'
import { buildNachaFile, type NachaFile } from './providers/nacha-file.ts'
import { openNumber } from './sealed-numbers.ts'
import { senderItemId } from './send-payout.job.ts'
import { DAY_MS } from '../../src/durations.ts'

/** What a bank account number is sealed as in payout_choices.account_sealed. */
export const ACCOUNT_NUMBER_PURPOSE = 'accountNumber'
/** Items whose payment went out (or was paid): what a file for the bank lists. */
const OUT = ['sent', 'paid'] as const

/** The firm's calendar day of an instant, YYYY-MM-DD, in firm.json's zone. */
export function firmDay(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: FIRM_SETTINGS.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(ms))
}

/**
 * The NACHA file of a batch's ACH credits, made when asked for: the claimants' account numbers are
 * opened from payout_choices only here, for the file, and never kept opened. 409 naming the ACH
 * settings that are not set.
 */
export async function achFileOf({
  db,
  batch,
  ach,
  paymentsKey,
  now = Date.now(),
}: {
  db: Kysely<Database>
  batch: { id: number; app: string }
  ach: AchSettings
  paymentsKey: Buffer
  now?: number
}): Promise<NachaFile> {
  const missing = missingAchSettings(ach)
  if (missing.length) throw notSetUp(`the ACH file needs ${missing.join(', ')}: set them and restart`)
  const items = await db
    .selectFrom('payout_items')
    .innerJoin('payout_choices as choice', 'choice.claim_id', 'payout_items.claim_id')
    .innerJoin('claims', 'claims.id', 'payout_items.claim_id')
    .leftJoin('tax_forms as w9', 'w9.claim_id', 'payout_items.claim_id')
    .select([
      'payout_items.id',
      'payout_items.net_cents',
      'choice.routing_number',
      'choice.account_sealed',
      'choice.account_type',
      'w9.legal_name',
      'claims.first_name',
      'claims.last_name',
    ])
    .where('payout_items.batch_id', '=', batch.id)
    .where('payout_items.method', '=', 'ach')
    .where('payout_items.status', 'in', OUT)
    .orderBy('payout_items.id')
    .execute()
  if (items.length === 0) {
    throw new AppError('NOT_FOUND', {
      status: 404,
      message: `payout batch ${batch.id} has no ACH credit sent`,
    })
  }
  return buildNachaFile({
    originator: {
      immediateDestination: ach.originRouting!,
      immediateDestinationName: `BANK ${ach.originRouting}`,
      immediateOrigin: ach.companyId!,
      immediateOriginName: ach.companyName!,
      companyName: ach.companyName!,
      companyIdentification: ach.companyId!,
      originatingDfi: ach.originRouting!,
    },
    credits: items.map((item) => ({
      reference: senderItemId(Number(item.id)),
      name: item.legal_name ?? `${item.first_name} ${item.last_name}`,
      routingNumber: item.routing_number ?? '',
      accountNumber: item.account_sealed
        ? openNumber({ key: paymentsKey, sealed: item.account_sealed, purpose: ACCOUNT_NUMBER_PURPOSE })
        : '',
      accountType: item.account_type ?? 'checking',
      amountCents: Number(item.net_cents),
    })),
    entryDescription: 'SETTLEMENT',
    effectiveDate: firmDay(now + DAY_MS),
    createdAt: new Date(now),
    timeZone: FIRM_SETTINGS.timeZone,
  })
}

/**
 * A batch's checks as the printable register and the positive-pay file, each check under the number
 * the send job gave it and dated the day it was sent. A claimant's address is their W-9's, else the
 * address of the intake they confirmed. 409 when ACH_ORIGIN_ACCOUNT (the account the checks draw on)
 * is not set.
 */
export async function checkFilesOf({
  db,
  batch,
  ach,
}: {
  db: Kysely<Database>
  batch: { id: number; app: string }
  ach: AchSettings
}): Promise<{ registerCsv: string; positivePayCsv: string; count: number; totalCents: number }> {
  if (!ach.originAccount) throw notSetUp('the check files need ACH_ORIGIN_ACCOUNT: set it and restart')
  const items = await db
    .selectFrom('payout_items')
    .innerJoin('claims', 'claims.id', 'payout_items.claim_id')
    .leftJoin('tax_forms as w9', 'w9.claim_id', 'payout_items.claim_id')
    .select([
      'payout_items.id',
      'payout_items.claim_id',
      'payout_items.net_cents',
      'payout_items.check_number',
      'payout_items.updated_at',
      'w9.legal_name',
      'w9.address',
      'w9.city',
      'w9.state',
      'w9.zip_code',
      'claims.first_name',
      'claims.last_name',
    ])
    .where('payout_items.batch_id', '=', batch.id)
    .where('payout_items.method', '=', 'check')
    .where('payout_items.check_number', 'is not', null)
    .orderBy('payout_items.check_number')
    .execute()
  if (items.length === 0) {
    throw new AppError('NOT_FOUND', { status: 404, message: `payout batch ${batch.id} has no check sent` })
  }
  const intakeAddresses = new Map(
    (
      await readBatchClaims(db, batch.app, {
        ids: items.filter((item) => item.address === null).map((item) => Number(item.claim_id)),
      })
    ).map((claim) => [claim.claimId, claim.address]),
  )
  let registerCsv = ''
  let positivePayCsv = ''
  // each check keeps its own number and day: a fallback check is numbered when its item failed
  for (const item of items) {
    const intake = intakeAddresses.get(Number(item.claim_id))
    const payment: CheckPayment = {
      reference: senderItemId(Number(item.id)),
      payee: item.legal_name ?? `${item.first_name} ${item.last_name}`,
      amountCents: Number(item.net_cents),
      address:
        item.address !== null
          ? { street: item.address, city: item.city!, state: item.state!, zip: item.zip_code! }
          : {
              street: intake?.street ?? '',
              ...(intake?.addressLine2 ? { addressLine2: intake.addressLine2 } : {}),
              city: intake?.city ?? '',
              state: intake?.state ?? '',
              zip: intake?.zip ?? '',
            },
    }
    const one = buildCheckRegister({
      payments: [payment],
      firstCheckNumber: Number(item.check_number),
      issueDate: firmDay(Number(item.updated_at)),
      accountNumber: ach.originAccount,
    })
    registerCsv += registerCsv === '' ? one.registerCsv : afterHeader(one.registerCsv)
    positivePayCsv += positivePayCsv === '' ? one.positivePayCsv : afterHeader(one.positivePayCsv)
  }
  return {
    registerCsv,
    positivePayCsv,
    count: items.length,
    totalCents: items.reduce((sum, item) => sum + Number(item.net_cents), 0),
  }
}

function afterHeader(csv: string): string {
  return csv.slice(csv.indexOf('\r\n') + 2)
}

function notSetUp(message: string): AppError {
  return new AppError('CONFLICT', { status: 409, message })
}
