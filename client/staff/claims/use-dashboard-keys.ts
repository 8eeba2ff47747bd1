import { useEffect, useLayoutEffect, useRef } from 'react'
import { isTypingTarget } from '../shared/use-list-keys.ts'

/**
 * The dashboard's keys beyond the list's (use-list-keys.ts): `/` searches, `?` shows the shortcut
 * sheet, `z` zooms the open screenshot, Esc closes the open claim. A key typed into a field is text,
 * and a key with Ctrl, Alt or Cmd belongs to the browser; while a dialog is open it has the keys.
 */
export function useDashboardKeys(handlers: {
  onSearch: () => void
  onHelp: () => void
  onZoom: () => void
  onEscape: () => void
}): void {
  const latest = useRef(handlers)
  useLayoutEffect(() => {
    latest.current = handlers
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
      if (document.querySelector('dialog[open]')) return
      const { onSearch, onHelp, onZoom, onEscape } = latest.current
      if (event.key === 'Escape') {
        // Esc in the search box is the browser's: it clears the term
        if (isTypingTarget(event.target)) return
        onEscape()
        return
      }
      if (isTypingTarget(event.target)) return
      const action = { '/': onSearch, '?': onHelp, z: onZoom }[event.key]
      if (!action) return
      event.preventDefault()
      action()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}
