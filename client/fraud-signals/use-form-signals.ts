import { useEffect, useState, type RefObject, type SyntheticEvent } from 'react'
import type { FormSignals } from '../../src/form-signals.ts'
import { fieldName } from '../forms/use-field-messages.ts'
import { deviceId } from './device-id.ts'

// the answers a person types or pastes; a choice, a box, the file and the pad are never pasted
const TEXT_TYPES = new Set(['text', 'email', 'tel', 'number', 'search', 'url'])

/**
 * What a form sees as the claimant fills it in (src/form-signals.ts): the time from its first paint to
 * the send, the answers pasted and typed, and the hidden trap's value. Spread `listeners` on the element
 * around the form and give `trap` to its TrapField; `read()` at the send. Nothing here is state, so a
 * keystroke re-renders nothing.
 */
export function useFormSignals() {
  const [recorder] = useState(formSignalsRecorder)
  useEffect(() => recorder.shown(), [recorder])
  return recorder
}

function formSignalsRecorder() {
  let shownAt: number | undefined
  const pasted = new Set<string>()
  const typed = new Set<string>()
  const trap: RefObject<HTMLInputElement | null> = { current: null }
  return {
    shown: () => {
      shownAt ??= performance.now()
    },
    /** One listener for every answer: paste and input events bubble up from each field. */
    listeners: {
      onPaste: (event: SyntheticEvent) => noteAnswer(pasted, event.target),
      onInput: (event: SyntheticEvent) => noteAnswer(typed, event.target),
    },
    trap,
    read: (): FormSignals => {
      const signals: FormSignals = { device: deviceId(), pasted: [...pasted], typed: [...typed] }
      if (shownAt !== undefined) signals.elapsedMs = Math.round(performance.now() - shownAt)
      if (trap.current?.value) signals.trap = trap.current.value
      return signals
    },
  }
}

/** Adds the answer's name as the schema names it (root_email → email), for a text answer of the form. */
function noteAnswer(names: Set<string>, target: EventTarget): void {
  const isText =
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && TEXT_TYPES.has(target.type))
  if (isText && target.id.startsWith('root_')) names.add(fieldName(target.id))
}
