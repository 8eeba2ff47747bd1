import { describe, expect, it } from 'vitest'
import { editPhone, type PhoneEdit } from './phone-edit.ts'

const FULL = '(555) 867-5309'

/** The browser's own edit of `before`: one character deleted before (Backspace) or after (Delete) `at`. */
function deleteAt(before: string, at: number, key: 'Backspace' | 'Delete') {
  const after =
    key === 'Backspace'
      ? before.slice(0, at - 1) + before.slice(at)
      : before.slice(0, at) + before.slice(at + 1)
  return editPhone({
    before,
    after,
    caret: key === 'Backspace' ? at - 1 : at,
    inputType: key === 'Backspace' ? 'deleteContentBackward' : 'deleteContentForward',
  })
}

/** The browser's own edit of `before`: `text` inserted at `at`. */
function insertAt(before: string, at: number, text: string) {
  return editPhone({
    before,
    after: before.slice(0, at) + text + before.slice(at),
    caret: at + text.length,
    inputType: 'insertText',
  })
}

describe('editPhone', () => {
  it('formats a paste or an autofill of the whole number and puts the caret at its end', () => {
    expect(
      editPhone({ before: '', after: '+1 (555) 867-5309', caret: 17, inputType: 'insertFromPaste' }),
    ).toEqual({
      value: FULL,
      caret: FULL.length,
      hiddenCountryCode: '+1',
    })
    // autofill fires an input event without an inputType
    expect(editPhone({ before: '', after: '15558675309', caret: 11 })).toEqual({
      value: FULL,
      caret: FULL.length,
      hiddenCountryCode: '1',
    })
  })

  it('keeps the caret at the end while typing at the end', () => {
    expect(insertAt('(555', 4, '8')).toEqual({ value: '(555) 8', caret: 7 })
    expect(insertAt('+1 (555) 867-530', 16, '9')).toEqual({
      value: FULL,
      caret: FULL.length,
      hiddenCountryCode: '+1',
    })
  })

  it('deletes the last digit with Backspace at the end', () => {
    expect(deleteAt(FULL, FULL.length, 'Backspace')).toEqual({ value: '(555) 867-530', caret: 13 })
    expect(deleteAt('(555) 8', 7, 'Backspace')).toEqual({ value: '(555', caret: 4 })
  })

  it('deletes a digit in the middle and keeps the caret where it was', () => {
    // (55|5) 867-5309 → Backspace → (55) 867-5309 re-formatted
    expect(deleteAt(FULL, 3, 'Backspace')).toEqual({ value: '(558) 675-309', caret: 2 })
  })

  it('deletes the digit before a space, bracket or dash when Backspace lands on one', () => {
    // (555) |867-5309: the space alone would come straight back
    expect(deleteAt(FULL, 6, 'Backspace')).toEqual({ value: '(558) 675-309', caret: 3 })
    // (555) 867-|5309
    expect(deleteAt(FULL, 10, 'Backspace')).toEqual({ value: '(555) 865-309', caret: 8 })
  })

  it('deletes the digit after a separator when Delete lands on one', () => {
    // (555) 867|-5309
    expect(deleteAt(FULL, 9, 'Delete')).toEqual({ value: '(555) 867-309', caret: 9 })
  })

  it('replaces a digit in the middle: delete it, type the new one', () => {
    const deleted = deleteAt(FULL, 2, 'Backspace')
    expect(deleted).toEqual({ value: '(558) 675-309', caret: 1 })

    expect(insertAt(deleted.value, deleted.caret, '2')).toEqual({ value: '(255) 867-5309', caret: 2 })
  })

  it('takes a selection deleted or typed over like a plain field', () => {
    expect(editPhone({ before: FULL, after: '', caret: 0, inputType: 'deleteContentBackward' })).toEqual({
      value: '',
      caret: 0,
    })
    // "867" selected and "212" typed over it, one key at a time: the first key replaces the selection
    expect(editPhone({ before: FULL, after: '(555) 2-5309', caret: 7, inputType: 'insertText' })).toEqual({
      value: '(555) 253-09',
      caret: 7,
    })
  })

  it('ignores a letter typed in the middle, keeping the caret in place', () => {
    expect(insertAt(FULL, 7, 'x')).toEqual({ value: FULL, caret: 7 })
  })

  it('never loses a typed digit: typed key by key, 12345678901234 ends up shown whole, and +12345678901234 too', () => {
    for (const typed of ['12345678901234', '+12345678901234']) {
      let field: PhoneEdit = { value: '', caret: 0 }
      for (let length = 1; length <= typed.length; length++) {
        // as PhoneInput does: the country code the field took off comes with the next edit
        field = editPhone({
          before: field.value,
          after: field.value + typed[length - 1],
          caret: field.value.length + 1,
          inputType: 'insertText',
          hiddenCountryCode: field.hiddenCountryCode,
        })
        const prefix = typed.slice(0, length)
        const held = `${field.hiddenCountryCode ?? ''}${field.value}`.replace(/\D/g, '')
        expect(held, `after typing ${prefix}`).toBe(prefix.replace(/\D/g, ''))
        // more digits than a number holds: every one of them is shown
        if (prefix.replace(/\D/g, '').length > 11) expect(field.value.replace(/\D/g, '')).toBe(held)
        expect(field.caret).toBe(field.value.length)
      }
      expect(field.value).toBe(typed)
    }
  })

  it('takes the country code off a complete number, and brings it back only when a digit is added to it', () => {
    expect(editPhone({ before: '(234) 567-890', after: '(234) 567-8901', caret: 14 })).toEqual({
      value: '(234) 567-8901',
      caret: 14,
    })
    expect(editPhone({ before: '(123) 456-7890', after: '(123) 456-78901', caret: 15 })).toEqual({
      value: '(234) 567-8901',
      caret: 14,
      hiddenCountryCode: '1',
    })
    const hidden = { before: '(234) 567-8901', hiddenCountryCode: '1' }
    expect(editPhone({ ...hidden, after: '(234) 567-89012', caret: 15, inputType: 'insertText' })).toEqual({
      value: '123456789012',
      caret: 12,
    })
    // in the middle too: the digit typed after the area code's 2
    expect(editPhone({ ...hidden, after: '(2934) 567-8901', caret: 3, inputType: 'insertText' })).toEqual({
      value: '129345678901',
      caret: 3,
    })
    // a deletion or a paste over the whole number edits what is shown, as before
    expect(
      editPhone({ ...hidden, after: '(234) 567-890', caret: 13, inputType: 'deleteContentBackward' }),
    ).toEqual({ value: '(234) 567-890', caret: 13 })
    expect(editPhone({ ...hidden, after: '555 867 53091', caret: 13, inputType: 'insertFromPaste' })).toEqual(
      { value: '55586753091', caret: 11 },
    )
  })
})
