import type { Random } from './random.ts'

/** How people write one name or one mailbox more than one way: spellings, typos, nicknames, Gmail's dots. */

export const NICKNAMES: Record<string, string> = {
  Michael: 'Mike',
  Robert: 'Bob',
  William: 'Bill',
  Elizabeth: 'Liz',
  Jennifer: 'Jen',
  Christopher: 'Chris',
  Joseph: 'Joe',
  Daniel: 'Dan',
  Matthew: 'Matt',
  Anthony: 'Tony',
  James: 'Jim',
  Richard: 'Rick',
  Thomas: 'Tom',
  Patricia: 'Patty',
  Katherine: 'Kate',
  Rebecca: 'Becky',
  Jessica: 'Jess',
  Samantha: 'Sam',
  Nicholas: 'Nick',
  Kimberly: 'Kim',
}

/** The same Gmail address written without its dots (it reaches the same mailbox). */
export function undotted(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.replaceAll('.', '')}@${domain}`
}

/** A Gmail local part with dots put in (Gmail ignores them). */
export function withDots(random: Random, local: string): string {
  const letters = [...local]
  return letters
    .map((letter, i) => (i > 0 && i < letters.length - 1 && random.chance(0.2) ? `.${letter}` : letter))
    .join('')
}

const SPELLINGS: [string, string][] = [
  ['John', 'Jon'],
  ['Steven', 'Stephen'],
  ['Catherine', 'Katherine'],
  ['Sara', 'Sarah'],
  ['Philip', 'Phillip'],
  ['Brian', 'Bryan'],
  ['Ann', 'Anne'],
  ['Teresa', 'Theresa'],
  ['Smith', 'Smyth'],
  ['Thompson', 'Thomson'],
  ['Johnson', 'Jonson'],
  ['Clark', 'Clarke'],
  ['Reed', 'Reid'],
  ['Gray', 'Grey'],
]

/** The name written a little differently: another spelling, a letter doubled, dropped or swapped, an initial added. */
export function nearVariant(
  random: Random,
  name: { firstName: string; lastName: string },
): { firstName: string; lastName: string } {
  const spelled = (word: string) => {
    const pair = SPELLINGS.find((candidates) => candidates.includes(word))
    return pair ? (pair[0] === word ? pair[1] : pair[0]) : undefined
  }
  const typo = (word: string) => {
    const at = random.int(1, Math.max(1, word.length - 2))
    switch (random.int(0, 3)) {
      case 0:
        return word.slice(0, at) + word[at] + word.slice(at)
      case 1:
        return word.length > 4 ? word.slice(0, at) + word.slice(at + 1) : word + word.at(-1)
      case 2:
        return word.slice(0, at) + (word[at + 1] ?? '') + word[at] + word.slice(at + 2)
      default:
        return word.replace(/i/, 'y').replace(/^(\w+)$/, (whole) => (whole === word ? `${word}e` : whole))
    }
  }
  switch (random.int(0, 3)) {
    case 0:
      return { ...name, firstName: spelled(name.firstName) ?? typo(name.firstName) }
    case 1:
      return { ...name, lastName: spelled(name.lastName) ?? typo(name.lastName) }
    case 2:
      return { ...name, firstName: `${name.firstName} ${String.fromCharCode(65 + random.int(0, 25))}` }
    default:
      return { firstName: typo(name.firstName), lastName: name.lastName }
  }
}
