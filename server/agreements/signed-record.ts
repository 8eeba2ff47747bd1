import type { SignedRecord } from './agreement-document.ts'
import type { SignedAgreementRow } from './agreement-record.repository.ts'
import type { IntakeAgreementRow } from './intake-agreement.repository.ts'

/** A Step 2 claim's signed record as its downloads and e-mail copy read it. */
export function claimSignedRecord(row: SignedAgreementRow, appName: string): SignedRecord {
  return { ...row, kind: 'claim', id: row.claimId, appName }
}

/** The agreement signed with a main-form intake, as its downloads read it; appName names the apps chosen. */
export function intakeSignedRecord(row: IntakeAgreementRow, appName: string): SignedRecord {
  return { ...row, kind: 'intake', id: row.intakeId, app: appName, appName }
}
