import net from 'node:net'
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js'
import jaroWinkler from 'talisman/metrics/jaro-winkler.js'
import MailChecker from 'mailchecker'

/**
 * How the fraud tests see a claimant's details: each folded so that two writings of one thing meet
 * (José PEÑA and jose pena, 12 North Main Street Apt 4 and 12 n main st #4), and the e-mail and the
 * network cut to what one person controls. Pure functions, no database.
 */

/** Lower case, accents and anything but letters, digits and single spaces gone. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/** A claimant's name as one identity: the claims of one person share it, whatever the app. */
export function identityOf(firstName: string, lastName: string): string {
  return `${fold(firstName)}|${fold(lastName)}`
}

/**
 * How alike two names sound and read, 0 to 1: the lower of the first names' and the surnames' likeness,
 * each its Jaro-Winkler similarity, raised to 0.95 when the two also sound alike (the same Double
 * Metaphone code) and read close (0.8 or more). Part by part, because a household shares a surname: on
 * the whole name one long shared surname made different first names read as one (Jason and Mason Lopez,
 * 0.94), and sound alone made Billy and Paul one (both PL).
 */
export function nameSimilarity(
  a: { firstName: string; lastName: string },
  b: { firstName: string; lastName: string },
): number {
  return Math.min(partSimilarity(a.firstName, b.firstName), partSimilarity(a.lastName, b.lastName))
}

function partSimilarity(a: string, b: string): number {
  const [x, y] = [fold(a), fold(b)]
  if (x === y) return 1
  const reads = jaroWinkler(x, y)
  const soundsAlike = x !== '' && y !== '' && doubleMetaphone(x)[0] === doubleMetaphone(y)[0]
  return soundsAlike && reads >= 0.8 ? Math.max(reads, 0.95) : reads
}

/** Familiar forms of first names that do not start as the name does (Mike for Michael does). */
const FAMILIAR_NAMES: Record<string, string[]> = {
  robert: ['bob', 'bobby', 'rob'],
  william: ['bill', 'billy', 'will', 'liam'],
  elizabeth: ['liz', 'beth', 'betty', 'betsy'],
  richard: ['rick', 'dick', 'rich'],
  anthony: ['tony'],
  margaret: ['peggy', 'maggie', 'meg'],
  rebecca: ['becky'],
  john: ['jack'],
  edward: ['ted', 'ned', 'eddie'],
  charles: ['chuck', 'charlie'],
  henry: ['hank'],
  james: ['jim', 'jimmy'],
  katherine: ['kate', 'kathy', 'katie'],
  catherine: ['kate', 'cathy', 'katie'],
  alexander: ['alex', 'sandy'],
  theodore: ['ted', 'teddy'],
  francisco: ['paco', 'pancho'],
  jose: ['pepe'],
  guadalupe: ['lupe'],
  patricia: ['trish', 'patty'],
  sarah: ['sally'],
}

/**
 * Whether two identities (identityOf) are one person's name written two ways: the same surname, and
 * first names that start with the same letter (Mike and Michael, John and John A) or one the familiar
 * form of the other (Bob and Robert). A claimant filing several apps writes their name so on one of
 * them and another way on the next; that is not another person using their e-mail or phone.
 */
export function isSamePerson(a: string, b: string): boolean {
  if (a === b) return true
  const [aFirst = '', aLast] = a.split('|')
  const [bFirst = '', bLast] = b.split('|')
  if (aLast !== bLast || aFirst === '' || bFirst === '') return false
  if (aFirst[0] === bFirst[0]) return true
  const [x = '', y = ''] = [aFirst.split(' ')[0], bFirst.split(' ')[0]]
  return FAMILIAR_NAMES[x]?.includes(y) === true || FAMILIAR_NAMES[y]?.includes(x) === true
}

/** Google's addresses ignore dots in the local part; every address here ignores a +tag. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com'])

/** The mailbox an e-mail reaches: lower case, +tag dropped, Gmail's dots dropped (john.doe+1@gmail.com → johndoe@gmail.com). */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 0) return email.trim().toLowerCase()
  let local = email.slice(0, at).trim().toLowerCase()
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
  local = local.split('+')[0]!
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '')
    domain = 'gmail.com'
  }
  return `${local}@${domain}`
}

/** Whether the e-mail's domain hands out throw-away addresses (the mailchecker package's list). */
export function isDisposableEmail(email: string): boolean {
  return !MailChecker.isValid(email)
}

/**
 * The network a client address belongs to: an IPv4 address's /24, an IPv6 address's /64 (one home
 * or one phone's connection); undefined for an address that is neither.
 */
export function networkOf(address: string): string | undefined {
  const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address
  if (net.isIPv4(plain)) return `${plain.split('.').slice(0, 3).join('.')}.0/24`
  if (!net.isIPv6(plain)) return undefined
  const [head = '', tail = ''] = plain.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = plain.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/**
 * A number the claimant could not have: one of the 100 numbers kept for films and books
 * (555-0100 to 555-0199), one digit ten times, or the digits in a row.
 */
export function isUnlikelyPhone(phone: string): boolean {
  const digits = phone.replace(/\D/g, '').slice(-10)
  if (digits.length !== 10) return false
  if (/^(\d)\1{9}$/.test(digits)) return true
  if ('01234567890123456789'.includes(digits) || '98765432109876543210'.includes(digits)) return true
  const line = Number(digits.slice(6))
  return digits.slice(3, 6) === '555' && line >= 100 && line <= 199
}

const STREET_WORDS: Record<string, string> = {
  street: 'st',
  avenue: 'ave',
  av: 'ave',
  road: 'rd',
  drive: 'dr',
  lane: 'ln',
  boulevard: 'blvd',
  court: 'ct',
  place: 'pl',
  terrace: 'ter',
  circle: 'cir',
  highway: 'hwy',
  parkway: 'pkwy',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
  apartment: '#',
  apt: '#',
  unit: '#',
  suite: '#',
  ste: '#',
  number: '#',
  no: '#',
}

/**
 * A postal address as one key: the street line and the second line folded, the usual words abbreviated
 * as the Postal Service does, with the ZIP code's five digits; undefined without a street or ZIP code.
 */
export function addressKey(address: {
  street: string
  line2?: string | null
  zipCode: string
}): string | undefined {
  const zip = address.zipCode.replace(/\D/g, '').slice(0, 5)
  const street = fold(`${address.street} ${address.line2 ?? ''}`.replaceAll('#', ' unit '))
    .split(' ')
    .map((word) => STREET_WORDS[word] ?? word)
    .join(' ')
    .replace(/# (?=\S)/g, '#')
  if (!street || zip.length !== 5) return undefined
  return `${street}|${zip}`
}
