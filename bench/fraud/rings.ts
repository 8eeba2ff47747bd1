import type { FormSignals } from '../../src/form-signals.ts'
import { nearVariant, withDots } from './name-variants.ts'
import {
  DAY,
  drawDevice,
  drawEmail,
  drawHome,
  drawName,
  HOUR,
  ipIn,
  MAIN_FORM_FIELDS,
  RING_KINDS,
  STEP2_FIELDS,
  writeHome,
  type Home,
  type PlannedClaim,
  type PlannedIntake,
  type RingKind,
  DISPOSABLE_DOMAINS,
  type PlantContext,
} from './plan.ts'
import type { Random } from './random.ts'

/**
 * Planted rings: people (or scripts) filing claims for identities that are not theirs. Every ring has
 * an operator whose habits vary from ring to ring (where they connect from, how fast they fill the
 * form, how much they paste, whether they fill the main form too); each kind adds the trait it is
 * named for. Sizes and spreads in time are drawn per ring, so no two draws plant the same rings.
 */
interface Operator {
  kind: RingKind
  ring: number
  /** Where its forms come from: its own line, rotating residential proxies, or a data centre's /24. */
  network: 'home' | 'proxies' | 'datacentre'
  base: string
  /** The chance each answer is pasted (from a list of identities). */
  pasteHabit: number
  /** Median time on a Step 2 form. */
  speedMs: number
  mainFormShare: number
  disposableShare: number
  /** The ring's first claim, and the window its claims fall in. */
  start: number
  spreadMs: number
}

/** One member's claim with any of its parts given by the ring. */
interface MemberParts {
  name?: { firstName: string; lastName: string }
  email?: string
  device?: string | null
  home?: Home
  screenshot?: string
  signals?: Partial<FormSignals>
  at?: number
}

export function plantRings(
  ctx: PlantContext,
  ringClaims: number,
): { claims: PlannedClaim[]; intakes: PlannedIntake[]; rings: number } {
  const claims: PlannedClaim[] = []
  const intakes: PlannedIntake[] = []
  let ring = 0
  for (const [n, kind] of RING_KINDS.entries()) {
    // each kind gets an equal share of the ring claims
    const budget =
      Math.round((ringClaims * (n + 1)) / RING_KINDS.length) -
      Math.round((ringClaims * n) / RING_KINDS.length)
    let planted = 0
    while (planted < budget) {
      const made = PLANTERS[kind](ctx, operatorOf(ctx, kind, ring++), budget - planted)
      for (const claim of made) {
        claims.push(claim)
        if (claim.intake && !intakes.includes(claim.intake)) intakes.push(claim.intake)
      }
      planted += made.length
    }
  }
  return { claims, intakes, rings: ring }
}

function operatorOf(ctx: PlantContext, kind: RingKind, ring: number): Operator {
  const { random } = ctx
  const network = random.pick(['home', 'home', 'proxies', 'proxies', 'datacentre'] as const)
  const spreadDays = random.pick([0.25, 0.5, 1, 1, 2, 3, 7, 14])
  return {
    kind,
    ring,
    network,
    base: network === 'datacentre' ? ctx.networks.datacentre() : ctx.networks.home(),
    pasteHabit: random.between(0.3, 0.95),
    speedMs: random.between(25_000, 90_000),
    mainFormShare: random.between(0.5, 0.95),
    disposableShare: 0.05,
    start: random.between(ctx.span.start, ctx.span.end - 16 * DAY),
    spreadMs: spreadDays * DAY,
  }
}

/** A ring's size: from min, most near the median, at most max (and at most what the budget has left). */
function sizeOf(
  random: Random,
  { min, median, max }: { min: number; median: number; max: number },
  left: number,
) {
  return Math.max(1, Math.min(left, max, Math.max(min, Math.round(random.logNormal(median, 0.5)))))
}

const PLANTERS: Record<RingKind, (ctx: PlantContext, op: Operator, left: number) => PlannedClaim[]> = {
  /** One browser, many identities (the device id kept in its storage gives it away). */
  'one-device'(ctx, op, left) {
    const device = drawDevice(ctx.random)
    const size = sizeOf(ctx.random, { min: 3, median: 7, max: 25 }, left)
    return Array.from({ length: size }, () => member(ctx, op, { device }))
  },
  /** Many names at one address (a mail drop), each with its own e-mail, phone and browser. */
  'one-address'(ctx, op, left) {
    const home = drawHome(ctx.random)
    if (ctx.random.chance(0.3)) home.unit = String(ctx.random.int(1, 30))
    const size = sizeOf(ctx.random, { min: 4, median: 8, max: 20 }, left)
    return Array.from({ length: size }, () => member(ctx, { ...op, mainFormShare: 0.95 }, { home }))
  },
  /** One mailbox behind every identity, written with dots and +tags (Gmail), or throw-away addresses. */
  'email-variants'(ctx, op, left) {
    const { random } = ctx
    const owner = drawName(random)
    const gmail = random.chance(0.7)
    const local = `${owner.firstName}${owner.lastName}${random.int(10, 9999)}`.toLowerCase()
    const size = sizeOf(random, { min: 3, median: 6, max: 15 }, left)
    return Array.from({ length: size }, () => {
      if (random.chance(0.25)) {
        return member(ctx, op, {
          email: `${random
            .token(6)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, 'x')}@${random.pick(DISPOSABLE_DOMAINS)}`,
        })
      }
      const dotted = gmail ? withDots(random, local) : local
      const tag =
        !gmail || random.chance(0.6)
          ? `+${random.pick(['a', 'b', 'claim', 'x1', 'x2', random.token(3)])}`
          : ''
      return member(ctx, op, {
        email: `${dotted}${tag}@${gmail ? 'gmail.com' : random.pick(['outlook.com', 'yahoo.com'])}`,
      })
    })
  },
  /** One person filing again and again at their address under slightly different names. */
  'near-duplicate-names'(ctx, op, left) {
    const { random } = ctx
    const person = drawName(random)
    const home = drawHome(random)
    const device = random.chance(0.5) ? drawDevice(random) : undefined
    const size = sizeOf(random, { min: 2, median: 3, max: 6 }, left)
    return Array.from({ length: size }, (_, n) =>
      member(
        ctx,
        { ...op, mainFormShare: 0.95 },
        {
          name: n === 0 ? person : nearVariant(random, person),
          home,
          ...(device ? { device } : {}),
        },
      ),
    )
  },
  /** A script: seconds to send, every answer pasted, one network, within hours. */
  'bot-speed'(ctx, op, left) {
    const { random } = ctx
    const size = sizeOf(random, { min: 5, median: 15, max: 60 }, left)
    const devices = random.pick(['fresh', 'fresh', 'none', 'same'] as const)
    const device = drawDevice(random)
    const bot: Operator = {
      ...op,
      network: random.chance(0.8) ? 'datacentre' : 'home',
      base: ctx.networks.datacentre(),
      mainFormShare: 0.4,
      disposableShare: 0.3,
      spreadMs: random.between(1, 6) * HOUR,
    }
    return Array.from({ length: size }, () =>
      member(ctx, bot, {
        device: devices === 'none' ? null : devices === 'same' ? device : drawDevice(random),
        signals: {
          elapsedMs: Math.round(random.between(1_500, 12_000)),
          typed: STEP2_FIELDS,
          pasted: STEP2_FIELDS,
        },
      }),
    )
  },
  /** Screenshots of an account edited to fit each identity: an editor's name, a later change, a crop. */
  'edited-screenshots'(ctx, op, left) {
    const { random } = ctx
    const pools = ctx.screenshots
    const pool = random.pick([
      pools.photoshopped,
      pools.photoshopped,
      pools.photoshopped,
      pools.modifiedLater,
      pools.modifiedLater,
      pools.xmpEditor,
      pools.cropped,
    ])
    const size = sizeOf(random, { min: 3, median: 6, max: 12 }, left)
    return Array.from({ length: size }, () => member(ctx, op, { screenshot: random.pick(pool) }))
  },
}

/** A number no one has (555-0100 to 555-0199, kept for films), each once: an app takes a phone once. */
function unlikelyPhone(random: Random, taken: Set<string>): string {
  for (;;) {
    const phone = `(${random.int(201, 989)}) 555-01${random.int(0, 9)}${random.int(0, 9)}`
    if (taken.has(phone)) continue
    taken.add(phone)
    return phone
  }
}

/** One ring member's claim (and main form), the ring's parts given, the rest drawn. */
function member(ctx: PlantContext, op: Operator, parts: MemberParts): PlannedClaim {
  const { random } = ctx
  const name = parts.name ?? drawName(random)
  const email =
    parts.email ??
    (random.chance(op.disposableShare)
      ? drawEmail(random, name).replace(/@.*/, `@${random.pick(DISPOSABLE_DOMAINS)}`)
      : drawEmail(random, name))
  const phone = random.chance(0.03) ? unlikelyPhone(random, ctx.fictionalPhones) : ctx.nextPhone()
  const at = parts.at ?? op.start + random.next() * op.spreadMs
  const base = op.network === 'proxies' ? ctx.networks.home() : op.base
  const ip = ipIn(random, base)
  const device = parts.device === null ? undefined : (parts.device ?? drawDevice(random))
  const typed = parts.signals?.typed ?? STEP2_FIELDS
  const signals: FormSignals = {
    ...(device ? { device } : {}),
    elapsedMs: Math.round(Math.max(12_000, random.logNormal(op.speedMs, 0.4))),
    typed,
    pasted: typed.filter(() => random.chance(op.pasteHabit)),
    ...parts.signals,
  }
  const intake: PlannedIntake | undefined = random.chance(op.mainFormShare)
    ? {
        at: at - random.between(0.05, 6) * HOUR,
        ...name,
        email,
        phone,
        ...writeHome(random, parts.home ?? drawHome(random), { dropsUnit: 0.05 }),
        ip: op.network === 'proxies' ? ipIn(random, ctx.networks.home()) : ipIn(random, op.base),
        signals: {
          ...(device ? { device } : {}),
          elapsedMs:
            op.kind === 'bot-speed'
              ? Math.round(random.between(2_000, 15_000))
              : Math.round(Math.max(20_000, random.logNormal(op.speedMs * 1.5, 0.4))),
          typed: MAIN_FORM_FIELDS,
          pasted: MAIN_FORM_FIELDS.filter(() => op.kind === 'bot-speed' || random.chance(op.pasteHabit)),
        },
      }
    : undefined
  return {
    at,
    app: random.pick(ctx.apps),
    ...name,
    email,
    phone,
    ip,
    signals,
    screenshot: parts.screenshot ?? random.pick(ctx.screenshots.phone),
    intake,
    truth: { genuine: false, kind: op.kind, ring: op.ring },
  }
}
