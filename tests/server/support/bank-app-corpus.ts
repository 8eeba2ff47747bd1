import { chromium } from 'playwright-core'
import { PNG } from 'pngjs'
import { chromiumPath, LAUNCH_ARGS } from '../../e2e/chromium.ts'
import { encodeJpegImage, type Pixels } from './bank-screenshots.ts'

// a phone's screen in CSS pixels, and the status bar's height in them
const VIEWPORT = { width: 390, height: 844 }
const STATUS_BAR = 47

const MERCHANTS = [
  'Walmart Supercenter',
  'Shell Oil 57442',
  'Netflix.com',
  'Kroger #512',
  'Uber Trip',
  'Payroll Deposit ACME',
  'Venmo Cashout',
  'Target T-1932',
  'Starbucks Store 1187',
  'Amazon Mktp US',
  'CVS/Pharmacy 0421',
  'Spotify USA',
  'Brigit Advance',
  'ATM Withdrawal',
  'Zelle to J. Moore',
  'DoorDash Order',
  'T-Mobile Autopay',
  'Chevron 0093',
  'Dollar General',
  'Earnin Cash Out',
  'McDonald’s F2231',
  'Rent: Oak Apts',
  'Apple.com/bill',
  'Cash App Transfer',
]
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const FIRST_NAMES = ['Maria', 'James', 'Tanya', 'Luis', 'Keisha', 'Robert', 'Amy', 'Darnell', 'Ngoc', 'Priya']
const LAST_NAMES = [
  'Garcia',
  'Smith',
  'Johnson',
  'Nguyen',
  'Brown',
  'Patel',
  'Lee',
  'Walker',
  'Hall',
  'Young',
]

/**
 * One claimant's transaction list in one bank app: the layout (status bar, account header, balance,
 * list, tab bar) is the same for every seed; the name, balance, rows, amounts and dates differ as two
 * claimants' statements do.
 */
export function bankStatementHtml(seed: number): string {
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const money = (cents: number) =>
    `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
  let day = 28
  const month = Math.floor(random() * 12)
  const rows = Array.from({ length: 11 }, () => {
    day = Math.max(1, day - Math.floor(random() * 3))
    const isCredit = random() < 0.25
    const cents = Math.floor(random() * (isCredit ? 90_000 : 12_000)) + 99
    const merchant = pick(MERCHANTS)
    return `<li><span class="icon" style="background:hsl(${Math.floor(random() * 360)} 55% 45%)">${merchant[0]}</span>
      <span class="what"><b>${merchant}</b><small>${MONTHS[month]} ${day}${random() < 0.3 ? ' · Pending' : ''}</small></span>
      <span class="amount ${isCredit ? 'credit' : ''}">${isCredit ? '+' : '−'}${money(cents)}</span></li>`
  }).join('')
  const time = `${1 + Math.floor(random() * 12)}:${String(Math.floor(random() * 60)).padStart(2, '0')}`
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; margin: 0; padding: 0 }
    body { font: 15px/1.3 system-ui, sans-serif; background: #f3f5f7; color: #14202b; width: 390px; height: 844px; overflow: hidden }
    .status { height: ${STATUS_BAR}px; display: flex; justify-content: space-between; align-items: center; padding: 0 26px; font-weight: 600; background: #0b5e4a; color: #fff }
    header { background: #0b5e4a; color: #fff; padding: 8px 20px 22px }
    header p { opacity: .8; font-size: 13px }
    header h1 { font-size: 34px; margin-top: 4px }
    .tabs { display: flex; gap: 8px; padding: 12px 20px }
    .tabs span { padding: 6px 12px; border-radius: 16px; background: #fff; font-size: 13px }
    .tabs span:first-child { background: #0b5e4a; color: #fff }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: #5b6975; padding: 4px 20px 8px }
    ul { list-style: none; background: #fff; margin: 0 12px; border-radius: 12px }
    li { display: flex; align-items: center; gap: 12px; padding: 10px 12px; border-bottom: 1px solid #e6eaee; height: 52px }
    .icon { width: 34px; height: 34px; border-radius: 50%; color: #fff; display: grid; place-items: center; font-weight: 700 }
    .what { flex: 1; display: flex; flex-direction: column; overflow: hidden; white-space: nowrap }
    .what small { color: #6b7885 }
    .amount { font-weight: 600 }
    .credit { color: #13804f }
    nav { position: fixed; bottom: 0; left: 0; right: 0; height: 74px; background: #fff; border-top: 1px solid #dde2e6; display: flex; justify-content: space-around; padding-top: 10px; font-size: 11px; color: #5b6975 }
  </style></head><body>
    <div class="status"><span>${time}</span><span>▂▄▆ 5G ▮▮▮${random() < 0.5 ? '▮' : '▯'}</span></div>
    <header><p>${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} · Checking ••${String(Math.floor(random() * 10_000)).padStart(4, '0')}</p>
      <h1>${money(Math.floor(random() * 400_000))}</h1><p>Available balance</p></header>
    <div class="tabs"><span>All</span><span>Deposits</span><span>Withdrawals</span><span>Pending</span></div>
    <h2>Recent transactions</h2>
    <ul>${rows}</ul>
    <nav><span>Home</span><span>Cards</span><span>Move money</span><span>More</span></nav>
  </body></html>`
}

/** A corpus: each seed's statement rendered by Chromium as a phone screenshot (PNG), in seed order. */
export async function renderBankStatements({
  seeds,
  deviceScaleFactor = 3,
}: {
  seeds: number[]
  deviceScaleFactor?: number
}): Promise<Buffer[]> {
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: LAUNCH_ARGS })
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor })
    const shots: Buffer[] = []
    for (const seed of seeds) {
      await page.setContent(bankStatementHtml(seed))
      shots.push(await page.screenshot({ type: 'png' }))
    }
    return shots
  } finally {
    await browser.close()
  }
}

/** A true copy of a screenshot, as a second claimant would send one, and how it was made. */
export interface ScreenshotCopy {
  how: 'same file' | 'JPEG quality 70' | 'resized to 2/3' | 'status bar cropped'
  bytes: Buffer
}

/** The four copies of a screenshot that must be caught: the same bytes, re-encoded, resized, cropped. */
export function copiesOf(png: Buffer): ScreenshotCopy[] {
  const pixels = decodePng(png)
  const statusBar = Math.round((STATUS_BAR * pixels.width) / VIEWPORT.width)
  return [
    { how: 'same file', bytes: Buffer.from(png) },
    { how: 'JPEG quality 70', bytes: encodeJpegImage(pixels, 70) },
    { how: 'resized to 2/3', bytes: encodePng(resize(pixels, 2 / 3)) },
    { how: 'status bar cropped', bytes: encodePng(cropTop(pixels, statusBar)) },
  ]
}

function decodePng(bytes: Buffer): Pixels {
  const { width, height, data } = PNG.sync.read(bytes)
  return { width, height, data }
}

function encodePng(pixels: Pixels): Buffer {
  const png = new PNG({ width: pixels.width, height: pixels.height })
  pixels.data.copy(png.data)
  return PNG.sync.write(png)
}

/** Box-filtered down to `scale` of each side. */
function resize(pixels: Pixels, scale: number): Pixels {
  const width = Math.round(pixels.width * scale)
  const height = Math.round(pixels.height * scale)
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    const [y0, y1] = [Math.floor(y / scale), Math.max(Math.floor((y + 1) / scale), Math.floor(y / scale) + 1)]
    for (let x = 0; x < width; x++) {
      const [x0, x1] = [
        Math.floor(x / scale),
        Math.max(Math.floor((x + 1) / scale), Math.floor(x / scale) + 1),
      ]
      for (let channel = 0; channel < 4; channel++) {
        let sum = 0
        for (let sy = y0; sy < y1; sy++)
          for (let sx = x0; sx < x1; sx++) sum += pixels.data[(sy * pixels.width + sx) * 4 + channel]!
        data[(y * width + x) * 4 + channel] = Math.round(sum / ((y1 - y0) * (x1 - x0)))
      }
    }
  }
  return { width, height, data }
}

function cropTop(pixels: Pixels, rows: number): Pixels {
  return {
    width: pixels.width,
    height: pixels.height - rows,
    data: Buffer.from(pixels.data.subarray(rows * pixels.width * 4)),
  }
}

function seededRandom(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}
