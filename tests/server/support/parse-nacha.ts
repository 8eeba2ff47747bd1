/**
 * Reads a NACHA file back field by field, by the positions the NACHA Operating Rules give each record
 * (1-based, inclusive, as the rules print them), independently of the code that wrote it. Numbers stay
 * text, so a test sees the zero padding the file holds.
 */
export interface NachaFile {
  lines: string[]
  header: Record<string, string>
  batches: {
    header: Record<string, string>
    entries: Record<string, string>[]
    control: Record<string, string>
  }[]
  control: Record<string, string>
  /** The all-9 records that fill the last block. */
  padding: number
}

type Layout = Record<string, [from: number, to: number]>

const FILE_HEADER: Layout = {
  recordType: [1, 1],
  priorityCode: [2, 3],
  immediateDestination: [4, 13],
  immediateOrigin: [14, 23],
  creationDate: [24, 29],
  creationTime: [30, 33],
  fileIdModifier: [34, 34],
  recordSize: [35, 37],
  blockingFactor: [38, 39],
  formatCode: [40, 40],
  immediateDestinationName: [41, 63],
  immediateOriginName: [64, 86],
  referenceCode: [87, 94],
}

const BATCH_HEADER: Layout = {
  recordType: [1, 1],
  serviceClassCode: [2, 4],
  companyName: [5, 20],
  companyDiscretionaryData: [21, 40],
  companyIdentification: [41, 50],
  standardEntryClassCode: [51, 53],
  companyEntryDescription: [54, 63],
  companyDescriptiveDate: [64, 69],
  effectiveEntryDate: [70, 75],
  settlementDate: [76, 78],
  originatorStatusCode: [79, 79],
  originatingDfi: [80, 87],
  batchNumber: [88, 94],
}

const ENTRY: Layout = {
  recordType: [1, 1],
  transactionCode: [2, 3],
  receivingDfi: [4, 11],
  checkDigit: [12, 12],
  dfiAccountNumber: [13, 29],
  amount: [30, 39],
  individualIdNumber: [40, 54],
  individualName: [55, 76],
  discretionaryData: [77, 78],
  addendaRecordIndicator: [79, 79],
  traceNumber: [80, 94],
}

const BATCH_CONTROL: Layout = {
  recordType: [1, 1],
  serviceClassCode: [2, 4],
  entryAddendaCount: [5, 10],
  entryHash: [11, 20],
  totalDebit: [21, 32],
  totalCredit: [33, 44],
  companyIdentification: [45, 54],
  messageAuthenticationCode: [55, 73],
  reserved: [74, 79],
  originatingDfi: [80, 87],
  batchNumber: [88, 94],
}

const FILE_CONTROL: Layout = {
  recordType: [1, 1],
  batchCount: [2, 7],
  blockCount: [8, 13],
  entryAddendaCount: [14, 21],
  entryHash: [22, 31],
  totalDebit: [32, 43],
  totalCredit: [44, 55],
  reserved: [56, 94],
}

function fields(line: string, layout: Layout): Record<string, string> {
  return Object.fromEntries(
    Object.entries(layout).map(([name, [from, to]]) => [name, line.slice(from - 1, to)]),
  )
}

/** Throws when a record is not 94 characters or the records are not in NACHA's order. */
export function parseNacha(text: string): NachaFile {
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  lines.forEach((line, index) => {
    if (line.length !== 94) throw new Error(`record ${index + 1} is ${line.length} characters, not 94`)
  })
  const [first, ...rest] = lines
  if (first?.[0] !== '1') throw new Error('the file does not start with a file header (1)')
  const file: NachaFile = { lines, header: fields(first, FILE_HEADER), batches: [], control: {}, padding: 0 }
  let batch: NachaFile['batches'][number] | undefined
  for (const line of rest) {
    const type = line[0]
    if (file.control.recordType) {
      if (line !== '9'.repeat(94)) throw new Error('a record follows the file control that is not padding')
      file.padding++
    } else if (type === '5') {
      if (batch) throw new Error('a batch header inside a batch')
      batch = { header: fields(line, BATCH_HEADER), entries: [], control: {} }
    } else if (type === '6') {
      if (!batch) throw new Error('an entry outside a batch')
      batch.entries.push(fields(line, ENTRY))
    } else if (type === '8') {
      if (!batch) throw new Error('a batch control outside a batch')
      batch.control = fields(line, BATCH_CONTROL)
      file.batches.push(batch)
      batch = undefined
    } else if (type === '9') {
      if (batch) throw new Error('the file control inside a batch')
      file.control = fields(line, FILE_CONTROL)
    } else {
      throw new Error(`record type "${type}" is not one this file should hold`)
    }
  }
  if (!file.control.recordType) throw new Error('the file has no file control (9)')
  return file
}
