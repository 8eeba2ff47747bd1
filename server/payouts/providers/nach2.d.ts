// nach2 ships no types; these are the parts nacha-file.ts uses
declare module 'nach2' {
  interface NachFile {
    addBatch(batch: NachBatch): void
    generateFile(done: (text: string) => void): void
  }
  interface NachBatch {
    addEntry(entry: NachEntry): void
  }
  type NachEntry = object

  /** nach2 is CommonJS: its module.exports is the default import. */
  const nach: {
    File: new (options: {
      immediateDestination: string
      immediateOrigin: string
      immediateDestinationName: string
      immediateOriginName: string
      fileCreationDate?: string
      fileCreationTime?: string
      fileIdModifier?: string
      referenceCode?: string
      batchSequenceNumber?: number
    }) => NachFile
    Batch: new (options: {
      serviceClassCode: string
      companyName: string
      companyIdentification: string
      standardEntryClassCode: string
      companyEntryDescription: string
      companyDescriptiveDate?: string
      effectiveEntryDate: Date
      originatingDFI: string
    }) => NachBatch
    Entry: new (options: {
      transactionCode: string
      receivingDFI: string
      DFIAccount: string
      /** Dollars, as nach2 parses them with Number(). */
      amount: string
      idNumber?: string
      individualName: string
      discretionaryData?: string
      traceNumber?: string
    }) => NachEntry
  }
  export default nach
}
