import { formatPhone } from './phone.ts'

/** What the phone field shows after an edit, and where its caret goes. */
export interface PhoneEdit {
  value: string
  caret: number
  /**
   * The country code a complete number was shown without ('1' or '+1'): the field holds it still, and
   * gives it back with the next edit, so that a digit typed on shows every digit the claimant typed.
   */
  hiddenCountryCode?: string
}

/** The characters the field adds itself: deleting one alone would change nothing once re-formatted. */
const SEPARATORS = /^[ ()-]+$/

/**
 * The phone field after one edit (a key, a paste, an autofill, a deletion): the text re-formatted as
 * formatPhone shows it, with the caret kept beside the same digit, so typing or deleting in the
 * middle of a number works as in a plain field. Deleting only a bracket, space or dash deletes the
 * digit beyond it, as the claimant meant. A country code taken off a complete number comes back when
 * a digit is typed into it ('1 234 567 8901' then '2' shows '123456789012'): no typed digit is lost.
 * @example editPhone({ before: '(555) 8', after: '(555) ', caret: 6, inputType: 'deleteContentBackward' })
 * // { value: '(555', caret: 4 }
 */
export function editPhone({
  before,
  after,
  caret,
  inputType,
  hiddenCountryCode,
}: {
  /** What the field showed before the edit. */
  before: string
  /** What the browser made of it: the field's value as the input event found it. */
  after: string
  /** The caret in `after` (selectionStart). */
  caret: number
  /** The input event's inputType ('insertText', 'deleteContentBackward', …), if known. */
  inputType?: string
  /** What the last edit answered as hiddenCountryCode, while the field still shows its value. */
  hiddenCountryCode?: string
}): PhoneEdit {
  // digits typed into the number: the claimant goes on past it, so its country code was a typed digit
  const restored = hiddenCountryCode && /\d/.test(insertedText(before, after)) ? hiddenCountryCode : ''
  let raw = restored + after
  let rawCaret = restored.length + Math.min(Math.max(caret, 0), after.length)
  if (isDeletion(inputType) && SEPARATORS.test(removedText(before, after))) {
    const digit =
      inputType === 'deleteContentForward'
        ? firstDigitAtOrAfter(raw, rawCaret)
        : lastDigitBefore(raw, rawCaret)
    if (digit !== -1) {
      raw = raw.slice(0, digit) + raw.slice(digit + 1)
      rawCaret = Math.min(rawCaret, digit)
    }
  }
  const value = formatPhone(raw)
  const rawDigits = raw.replace(/\D/g, '')
  const shownDigits = value.replace(/\D/g, '')
  // the country code dropped from the front: the caret's digits count one fewer
  const dropped = rawDigits.length - shownDigits.length === 1 && rawDigits.endsWith(shownDigits) ? 1 : 0
  const digitsBeforeCaret = Math.max(0, countDigits(raw.slice(0, rawCaret)) - dropped)
  const edit = { value, caret: positionAfterDigits(value, digitsBeforeCaret) }
  if (dropped === 0) return edit
  return { ...edit, hiddenCountryCode: raw.trimStart().startsWith('+') ? '+1' : '1' }
}

function isDeletion(inputType: string | undefined): boolean {
  return inputType === 'deleteContentBackward' || inputType === 'deleteContentForward'
}

/** The text one edit took out of `before` to give `after` (empty when it took nothing out). */
function removedText(before: string, after: string): string {
  if (after.length >= before.length) return ''
  let start = 0
  while (start < after.length && before[start] === after[start]) start++
  let end = 0
  while (end < after.length - start && before.at(-1 - end) === after.at(-1 - end)) end++
  const removed = before.slice(start, before.length - end)
  return before.slice(0, start) + before.slice(before.length - end) === after ? removed : ''
}

/** The text one edit put into `before` at one place to give `after` (empty when it was no insertion). */
function insertedText(before: string, after: string): string {
  return removedText(after, before)
}

function lastDigitBefore(text: string, position: number): number {
  for (let i = position - 1; i >= 0; i--) if (isDigit(text[i])) return i
  return -1
}

function firstDigitAtOrAfter(text: string, position: number): number {
  for (let i = position; i < text.length; i++) if (isDigit(text[i])) return i
  return -1
}

function countDigits(text: string): number {
  return text.replace(/\D/g, '').length
}

/** Where the caret stands right after the `count`th digit of `text`; before the first digit for 0. */
function positionAfterDigits(text: string, count: number): number {
  let seen = 0
  for (let i = 0; i < text.length; i++) {
    if (!isDigit(text[i])) continue
    if (count === 0) return i
    if (++seen === count) return i + 1
  }
  return text.length
}

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9'
}
