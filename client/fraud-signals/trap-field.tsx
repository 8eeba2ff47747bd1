import type { RefObject } from 'react'

/**
 * A text field no person meets, which a bot that fills every field fills: placed off-screen (not
 * display:none, which a bot skips), hidden from screen readers and out of the Tab order. Its value goes
 * with the signals, and a filled one is refused as a bot's. Draw it inside the <form>.
 */
export function TrapField({ inputRef }: { inputRef: RefObject<HTMLInputElement | null> }) {
  return (
    <div className="form-trap" aria-hidden="true">
      <label>
        Website
        <input ref={inputRef} type="text" name="website" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  )
}
