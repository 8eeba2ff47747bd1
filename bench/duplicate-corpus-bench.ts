import { parseArgs } from 'node:util'
import { NEAR_DISTANCE } from '../server/duplicates/screenshot-bands.ts'
import { fingerprintScreenshot } from '../server/duplicates/screenshot-fingerprint.ts'
import { compareScreenshots, FINE_NEAR_DISTANCE } from '../server/duplicates/near-copy.ts'
import { copiesOf, renderBankStatements } from '../tests/server/support/bank-app-corpus.ts'

// npm run bench:duplicate-corpus -- [--statements N] [--copied M]: N different statements of one bank
// app (same layout; other names, rows, amounts and dates), rendered by Chromium at 390 × 844 × 3, every
// pair compared by the near-copy rule; and four copies (same file, JPEG quality 70, resized to 2/3, status
// bar cropped) of the first M, each compared with its original.
const { values } = parseArgs({
  options: {
    statements: { type: 'string', default: '100' },
    copied: { type: 'string', default: '25' },
  },
})
const statements = Number(values.statements)
const copied = Math.min(Number(values.copied), statements)
const count = (n: number) => n.toLocaleString('en-US')

let started = performance.now()
const shots = await renderBankStatements({ seeds: Array.from({ length: statements }, (_, i) => i + 1) })
console.log(`${statements} statements rendered in ${((performance.now() - started) / 1000).toFixed(1)} s`)
started = performance.now()
const fingerprints = shots.map((shot) => fingerprintScreenshot(shot))
console.log(`fingerprinted in ${((performance.now() - started) / 1000).toFixed(1)} s`)

let pairs = 0
let flagged = 0
let coarseOnly = 0
const closest: { coarse: number; fine: number; pair: string }[] = []
for (let i = 0; i < statements; i++) {
  for (let j = i + 1; j < statements; j++) {
    pairs++
    const sameBytes = fingerprints[i]!.sha256 === fingerprints[j]!.sha256
    const compared = compareScreenshots(fingerprints[i]!, fingerprints[j]!)
    if (sameBytes || compared.isNear) flagged++
    if (sameBytes || compared.coarse <= NEAR_DISTANCE) coarseOnly++
    closest.push({ ...compared, pair: `${i + 1}-${j + 1}` })
  }
}
closest.sort((a, b) => a.fine - b.fine)
const rate = (n: number) => `${((n / pairs) * 1000).toFixed(2)} in 1,000`
console.log(
  `\ndifferent statements: ${count(pairs)} pairs, ${count(flagged)} flagged (${rate(flagged)}); by the coarse hash alone (≤ ${NEAR_DISTANCE} bits) ${count(coarseOnly)} (${rate(coarseOnly)})`,
)
console.log(
  `  nearest by the fine hash (≤ ${FINE_NEAR_DISTANCE} of 512 bits is near): ${closest
    .slice(0, 5)
    .map(({ pair, coarse, fine }) => `${pair} fine ${fine} coarse ${coarse}`)
    .join('; ')}`,
)

const caught = new Map<string, { caught: number; made: number; worst: { coarse: number; fine: number } }>()
for (let i = 0; i < copied; i++) {
  for (const { how, bytes } of copiesOf(shots[i]!)) {
    const copy = fingerprintScreenshot(bytes)
    const compared = compareScreenshots(copy, fingerprints[i]!)
    const isCaught = copy.sha256 === fingerprints[i]!.sha256 || compared.isNear
    const entry = caught.get(how) ?? { caught: 0, made: 0, worst: { coarse: 0, fine: 0 } }
    entry.made++
    if (isCaught) entry.caught++
    entry.worst = {
      coarse: Math.max(entry.worst.coarse, compared.coarse),
      fine: Math.max(entry.worst.fine, compared.fine),
    }
    caught.set(how, entry)
  }
}
const total = [...caught.values()].reduce((sum, entry) => ({
  caught: sum.caught + entry.caught,
  made: sum.made + entry.made,
  worst: sum.worst,
}))
console.log(`\ncopies caught: ${total.caught} of ${total.made}`)
for (const [how, entry] of caught) {
  console.log(
    `  ${how}: ${entry.caught} of ${entry.made} (farthest: coarse ${entry.worst.coarse}, fine ${entry.worst.fine})`,
  )
}
