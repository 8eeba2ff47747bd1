import { useEffect, useLayoutEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react'

/** Fields that take typed text: a letter typed there is text, not a shortcut (a checkbox takes none). */
const TYPING = 'textarea, select, input:not([type="radio"]):not([type="checkbox"]), [contenteditable="true"]'

export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.matches(TYPING)
}

/**
 * The list's keys: `j`/`k` anywhere on the page, and ArrowDown/ArrowUp with the focus in the table, open
 * the next or previous claim or intake of the page shown (the first or last when none is open), wherever the focus
 * is, a row's checkbox included. Ignored while the person types in a field or holds a modifier, so that
 * no shortcut takes a letter meant for a search.
 * Returns the table's keydown handler.
 */
export function useListKeys({
  ids,
  currentId,
  onOpen,
}: {
  ids: number[]
  currentId: number | undefined
  /** `arrow`: the focus stays in the table; `letter`: it may move to the details. */
  onOpen: (id: number, key: 'arrow' | 'letter') => void
}): (event: ReactKeyboardEvent<HTMLElement>) => void {
  const latest = useRef({ ids, currentId, onOpen })
  useLayoutEffect(() => {
    latest.current = { ids, currentId, onOpen }
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const step = event.key === 'j' ? 1 : event.key === 'k' ? -1 : 0
      if (step === 0 || !isPlainKey(event)) return
      const next = neighbour(latest.current, step)
      if (next === undefined) return
      event.preventDefault()
      latest.current.onOpen(next, 'letter')
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  return (event) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (step === 0 || !isPlainKey(event.nativeEvent)) return
    const next = neighbour(latest.current, step)
    if (next === undefined) return
    event.preventDefault()
    latest.current.onOpen(next, 'arrow')
  }
}

function isPlainKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false
  return !isTypingTarget(event.target)
}

function neighbour({ ids, currentId }: { ids: number[]; currentId: number | undefined }, step: number) {
  const at = currentId === undefined ? -1 : ids.indexOf(currentId)
  if (at < 0) return step > 0 ? ids[0] : ids.at(-1)
  return ids[at + step]
}
