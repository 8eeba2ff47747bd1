import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { loadAgreementTemplates } from '../server/agreements/agreement-templates.ts'
import { loadPdfCertificate } from '../server/agreements/pdf-seal.ts'
import { agreementPdfThread } from '../server/agreements/agreement-pdfs.ts'
import { readServerConfig } from '../server/config.ts'
import { createLogger } from '../server/logger.ts'
import { createDb } from '../server/db/create-db.ts'
import { migrateToLatest } from '../server/db/migrate.ts'
import { evidenceBundleFiles, zipBundle } from '../server/filing/evidence-bundle.ts'
import { loadEvidenceKey } from '../server/evidence/evidence-key.ts'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../server/forms/load-intake-config.ts'
import { loadLanguages } from '../server/forms/languages.ts'
import { auditLog } from '../server/audit/audit-log.ts'
import { createScreenshotStorage } from '../server/uploads/create-screenshot-storage.ts'

// npm run evidence -- --claim ID [--out FILE]: the claim's evidence bundle (a ZIP), as staff download it
// from the claim's details; the download goes into the audit log as theirs do.
const claimArgument = process.argv.indexOf('--claim')
const claimText = claimArgument === -1 ? undefined : process.argv[claimArgument + 1]
if (claimText === undefined || !/^\d{1,15}$/.test(claimText)) {
  console.error('usage: npm run evidence -- --claim ID [--out FILE] (ID: the claim id the dashboard shows)')
  process.exit(2)
}
const outArgument = process.argv.indexOf('--out')
const out = path.resolve(
  outArgument === -1 ? `claim-${claimText}-evidence.zip` : process.argv[outArgument + 1]!,
)
const config = readServerConfig()
const templates = loadAgreementTemplates()
const forms = loadFormConfigs(config.formsDir, { agreementTemplates: templates })
const intake = loadIntakeConfig(config.formsDir, { agreementTemplates: templates })
const languages = loadLanguages({ formsDir: config.formsDir, forms, intake })
const { db } = createDb(config)
const storage = createScreenshotStorage(config)
try {
  await migrateToLatest(db)
  const claimId = Number(claimText)
  const agreementPdfs = agreementPdfThread({
    certificate: loadPdfCertificate(config),
    tsaUrl: config.tsaUrl,
    languages,
    // stdout is the bundle's path alone
    logger: createLogger(config.logLevel, process.stderr),
  })
  const bundle = await evidenceBundleFiles({
    db,
    storage,
    forms,
    translators: languages.t,
    agreementPdfs,
    claimId,
    // the firm's own command: every neighbouring ledger entry whole
    visibleApps: 'every',
    recordDownload: (entry) =>
      auditLog(
        db,
        loadEvidenceKey({ setting: config.evidenceKey, dataDir: config.dataDir }),
      )({
        clientAddress: 'command line',
        ...entry,
      }),
  })
  // 'wx': an existing file is never overwritten
  await pipeline(zipBundle(bundle.files, bundle.signedAt), fs.createWriteStream(out, { flags: 'wx' }))
  console.log(out)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await storage.close()
  await db.destroy()
}
