import { mailboxOf } from '../../server/fraud/identity-keys.ts'
import type { FormSignals } from '../../src/form-signals.ts'
import { CARRIERS } from './networks.ts'
import {
  DAY,
  drawDevice,
  drawEmail,
  drawHome,
  drawLastName,
  drawName,
  HOUR,
  ipIn,
  MAIN_FORM_FIELDS,
  ownIpv6,
  PREFILLED_STEP2_FIELDS,
  STEP2_FIELDS,
  writeHome,
  type Home,
  DISPOSABLE_DOMAINS,
  type PlannedClaim,
  type PlannedIntake,
  type PlantContext,
} from './plan.ts'
import { NICKNAMES, undotted } from './name-variants.ts'
import type { Random } from './random.ts'

/** Genuine people as the campaigns bring them. Each share is of claimants unless it says otherwise. */
const GENUINE = {
  /** Households: the rest live alone. */
  twoAtOneAddress: 0.12,
  threeAtOneAddress: 0.02,
  /** A household of two (or three) filling their claims on one phone. */
  twoShareDevice: 0.2,
  threeShareDevice: 0.1,
  sameSurnameInHousehold: 0.7,
  /** Flats: a number on the street line and the flat on the second; a few leave the flat out. */
  inFlats: 0.25,
  flatLeftOut: 0.03,
  /** Claims per claimant (one per app): 1, 2, 3, 4-6. */
  claims: [0.75, 0.17, 0.05, 0.03],
  /** A later claim filed from another device than the first (a laptop, a partner's phone). */
  otherDevice: 0.2,
  /** A claimant filing several apps who writes a first name as a nickname on one of them. */
  nickname: 0.02,
  mainForm: 0.85,
  /** Of those with a main form, the share whose Step 2 came pre-filled through its link. */
  prefilled: 0.7,
  mobile: 0.55,
  /** Of phones, the share on IPv6 (a /64 each) rather than a carrier's CGNAT. */
  ipv6: 0.3,
  /** Of phones on CGNAT, the share that came in a burst through one /24 (an ad in one city). */
  burst: 0.2,
  disposable: 0.002,
  plusTag: 0.03,
  fieldPasted: 0.08,
  emailPasted: 0.2,
  everythingPasted: 0.005,
  tablet: 0.025,
  /** Claims from an old page that sent no signals. */
  noSignals: 0.01,
}

export interface Population {
  claims: PlannedClaim[]
  intakes: PlannedIntake[]
  /** Genuine claimants planted (a claimant may file several claims). */
  claimants: number
}

/** `claimants` genuine claimants, in households, with their claims and main forms. */
export function plantGenuine(ctx: PlantContext, claimants: number): Population {
  const { random } = ctx
  const claims: PlannedClaim[] = []
  const intakes: PlannedIntake[] = []
  const buildings: Building[] = []
  let person = 0
  while (person < claimants) {
    const draw = random.next()
    const size = Math.min(
      claimants - person,
      draw < GENUINE.threeAtOneAddress
        ? 3
        : draw < GENUINE.threeAtOneAddress + GENUINE.twoAtOneAddress
          ? 2
          : 1,
    )
    const home = homeOf(random, buildings)
    const homeNetwork = ctx.networks.home()
    const sharesDevice = random.chance(
      size === 3 ? GENUINE.threeShareDevice : size === 2 ? GENUINE.twoShareDevice : 0,
    )
    const householdDevice = drawDevice(random)
    const arrives = arrivalTime(random, ctx.span)
    const surname = drawLastName(random)
    for (let member = 0; member < size; member++) {
      const name = drawName(random)
      if (member === 0 || random.chance(GENUINE.sameSurnameInHousehold)) name.lastName = surname
      // a household hears of the campaign together, most file the same day
      const at =
        member === 0 || random.chance(0.6) ? arrives + random.between(0, DAY) : arrivalTime(random, ctx.span)
      plantClaimant(ctx, {
        person: person++,
        name,
        home,
        homeNetwork,
        device: sharesDevice ? householdDevice : drawDevice(random),
        at,
        claims,
        intakes,
      })
    }
  }
  return { claims, intakes, claimants }
}

/** A building's flats, and those a household of the campaign already lives in. */
interface Building {
  home: Home
  taken: Set<number>
}

const FLATS = 60

/** A home: a house, or a flat of its own in a building (a quarter of people), the buildings shared. */
function homeOf(random: Random, buildings: Building[]): Home {
  if (!random.chance(GENUINE.inFlats)) return drawHome(random)
  let building = buildings.length > 0 && random.chance(0.7) ? random.pick(buildings) : undefined
  if (!building || building.taken.size >= FLATS / 2) {
    building = { home: drawHome(random), taken: new Set() }
    buildings.push(building)
  }
  let flat = random.int(1, FLATS)
  while (building.taken.has(flat)) flat = random.int(1, FLATS)
  building.taken.add(flat)
  return { ...building.home, unit: String(flat) }
}

/** When a claimant arrives: over the span, in campaign waves (0.3 to 1.7 times the mean rate). */
function arrivalTime(random: Random, span: { start: number; end: number }): number {
  const u = random.next()
  const waves = Math.max(2, Math.round((span.end - span.start) / (7 * DAY)))
  const curved = u - (0.7 * Math.sin(2 * Math.PI * waves * u)) / (2 * Math.PI * waves)
  return span.start + curved * (span.end - span.start - DAY)
}

function plantClaimant(
  ctx: PlantContext,
  {
    person,
    name,
    home,
    homeNetwork,
    device,
    at,
    claims,
    intakes,
  }: {
    person: number
    name: { firstName: string; lastName: string }
    home: Home
    homeNetwork: string
    device: string
    at: number
    claims: PlannedClaim[]
    intakes: PlannedIntake[]
  },
): void {
  const { random } = ctx
  const email = ownEmail(ctx, name)
  const phone = ctx.nextPhone()
  const carrier = random.int(0, CARRIERS - 1)
  const onIpv6 = random.chance(GENUINE.ipv6)
  const phoneIpv6 = ownIpv6(random)
  const homeIp = ipIn(random, homeNetwork)
  const written = writeHome(random, home, { dropsUnit: GENUINE.flatLeftOut })
  /** Where one form is sent from: home Wi-Fi, or the phone's carrier. */
  const network = (when: number): { ip: string; at: number } => {
    if (!random.chance(GENUINE.mobile)) return { ip: homeIp, at: when }
    if (onIpv6) return { ip: phoneIpv6, at: when }
    if (random.chance(GENUINE.burst)) {
      const burst = ctx.networks.burst(ctx.span)
      return { ip: ipIn(random, burst.base), at: burst.at }
    }
    return { ip: ipIn(random, ctx.networks.carrier(carrier)), at: when }
  }
  const first = network(at)
  const count = claimCount(random)
  const intake = random.chance(GENUINE.mainForm)
    ? mainForm(ctx, {
        name,
        email,
        phone,
        written,
        device,
        at: first.at,
        ip: random.chance(0.5) ? first.ip : homeIp,
      })
    : undefined
  if (intake) intakes.push(intake)
  const prefilled = intake !== undefined && random.chance(GENUINE.prefilled)
  const apps = random.sample(ctx.apps, count)
  const nicknameOn = count > 1 && NICKNAMES[name.firstName] && random.chance(GENUINE.nickname) ? 1 : -1
  let when = first.at
  for (const [n, app] of apps.entries()) {
    const sent = n === 0 ? first : network(when)
    claims.push({
      at: sent.at,
      app,
      firstName: n === nicknameOn ? NICKNAMES[name.firstName]! : name.firstName,
      lastName: name.lastName,
      email: n > 0 && email.endsWith('@gmail.com') && random.chance(0.1) ? undotted(email) : email,
      phone,
      ip: sent.ip,
      signals: random.chance(GENUINE.noSignals)
        ? undefined
        : stepTwoSignals(random, {
            device: n > 0 && random.chance(GENUINE.otherDevice) ? drawDevice(random) : device,
            prefilled,
          }),
      screenshot: random.chance(GENUINE.tablet)
        ? random.pick(ctx.screenshots.tablet)
        : random.pick(ctx.screenshots.phone),
      intake,
      truth: { genuine: true, person },
    })
    // the next app: in the same sitting, or days later
    when = sent.at + (random.chance(0.6) ? random.between(2, 30) * 60_000 : random.between(1, 20) * DAY)
  }
}

/** An e-mail of the claimant's own: a few Gmail addresses with a +tag, a few throw-away ones. */
function ownEmail(ctx: PlantContext, name: { firstName: string; lastName: string }): string {
  const { random } = ctx
  for (;;) {
    let email = drawEmail(random, name)
    if (random.chance(GENUINE.disposable)) email = email.replace(/@.*/, `@${random.pick(DISPOSABLE_DOMAINS)}`)
    else if (email.endsWith('@gmail.com') && random.chance(GENUINE.plusTag)) {
      email = email.replace('@', `+${random.pick(['claims', 'legal', 'apps', 'money'])}@`)
    }
    const mailbox = mailboxOf(email)
    if (ctx.mailboxes.has(mailbox)) continue
    ctx.mailboxes.add(mailbox)
    return email
  }
}

function claimCount(random: Random): number {
  const draw = random.next()
  const [one = 0, two = 0, three = 0] = GENUINE.claims
  if (draw < one) return 1
  if (draw < one + two) return 2
  if (draw < one + two + three) return 3
  return random.int(4, 6)
}

/** A person's time on the Step 2 form (40 s to 10 min) and what they pasted. */
function stepTwoSignals(
  random: Random,
  { device, prefilled }: { device: string; prefilled: boolean },
): FormSignals {
  const typed = prefilled ? PREFILLED_STEP2_FIELDS : STEP2_FIELDS
  return {
    device,
    elapsedMs: Math.round(Math.min(600_000, Math.max(40_000, random.logNormal(150_000, 0.6)))),
    typed,
    pasted: pastedOf(random, typed),
  }
}

function pastedOf(random: Random, typed: string[]): string[] {
  if (random.chance(GENUINE.everythingPasted)) return typed
  const pasted = typed.filter((field) =>
    random.chance(field === 'email' ? GENUINE.emailPasted : GENUINE.fieldPasted),
  )
  // a person who pasted some answers typed at least one other
  return pasted.length === typed.length ? pasted.slice(1) : pasted
}

function mainForm(
  ctx: PlantContext,
  {
    name,
    email,
    phone,
    written,
    device,
    at,
    ip,
  }: {
    name: { firstName: string; lastName: string }
    email: string
    phone: string
    written: ReturnType<typeof writeHome>
    device: string
    at: number
    ip: string
  },
): PlannedIntake {
  const { random } = ctx
  return {
    at: at - random.between(0.2, 5 * 24) * HOUR,
    ...name,
    email,
    phone,
    ...written,
    ip,
    signals: {
      device: random.chance(0.8) ? device : drawDevice(random),
      elapsedMs: Math.round(Math.max(60_000, random.logNormal(240_000, 0.5))),
      typed: MAIN_FORM_FIELDS,
      pasted: pastedOf(random, MAIN_FORM_FIELDS),
    },
  }
}
