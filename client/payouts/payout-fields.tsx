import { useState, type HTMLAttributes, type ReactNode } from 'react'
import { AppError } from '../../src/app-error.ts'
import { useText } from '../i18n/use-text.ts'

/** Each field's messages, keyed as the server keys them: `{ routingNumber: ['…'] }`. */
export type FieldMessages = Record<string, string[]>

/**
 * The server keys a typed signature's message `typedSignature` and a drawn one's `signature`; both are
 * about the one pad (PayoutSignature), whose control is `<prefix>-signature`.
 */
const SHOWN_UNDER: Record<string, string> = { typedSignature: 'signature' }

/**
 * A payout form's sending: its field messages from a 422, one message for anything else, and focus
 * moved to the first field with a message, so a keyboard or screen reader user lands on what to fix.
 */
export function usePayoutForm(idPrefix: string) {
  const t = useText()
  const [errors, setErrors] = useState<FieldMessages>({})
  const [failure, setFailure] = useState<string>()
  const [isSending, setIsSending] = useState(false)
  async function send(run: () => Promise<void>): Promise<void> {
    setIsSending(true)
    setFailure(undefined)
    try {
      await run()
      setErrors({})
    } catch (error) {
      const fields = error instanceof AppError ? error.fields : undefined
      if (fields) {
        const found = Object.fromEntries(
          Object.entries(fields).map(([field, { __errors }]) => [SHOWN_UNDER[field] ?? field, __errors]),
        )
        setErrors(found)
        setFailure(t('Please correct what is marked below.'))
        const first = Object.keys(found)[0]
        setTimeout(() => document.getElementById(`${idPrefix}-${first}`)?.focus())
      } else {
        setErrors({})
        setFailure(
          error instanceof AppError && error.status < 500
            ? error.message
            : t('We could not save this. Please try again.'),
        )
      }
    } finally {
      setIsSending(false)
    }
  }
  const clear = (field: string) => setErrors(({ [field]: _cleared, ...rest }) => rest)
  return { errors, failure, isSending, send, clear }
}

/** A labelled one-line field with its messages tied to it (aria-describedby) and marked invalid. */
export function PayoutField({
  id,
  label,
  value,
  onChange,
  errors,
  hint,
  inputMode,
  autoComplete,
  maxLength,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  errors: string[] | undefined
  hint?: string
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode']
  autoComplete: string
  maxLength?: number
}) {
  const described = [hint ? `${id}-hint` : '', errors ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <div className="form-group">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field-help">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        className="form-control"
        type="text"
        inputMode={inputMode}
        autoComplete={autoComplete}
        autoCapitalize={inputMode === 'email' ? 'off' : undefined}
        spellCheck={false}
        maxLength={maxLength}
        value={value}
        aria-invalid={errors ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  )
}

/** A field's messages, or nothing. */
export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors) return null
  return (
    <p id={id} className="field-error">
      {errors.join(' ')}
    </p>
  )
}

/** A group of radio buttons under its legend, one choice of `options`; arrow keys move between them. */
export function RadioGroup<Value extends string>({
  id,
  legend,
  name,
  value,
  options,
  onChange,
  errors,
}: {
  id: string
  legend: string
  name: string
  value: Value | undefined
  options: { value: Value; label: string; detail?: ReactNode }[]
  onChange: (value: Value) => void
  errors: string[] | undefined
}) {
  return (
    <fieldset
      className="form-group payout-choices"
      aria-describedby={errors ? `${id}-error` : undefined}
      aria-invalid={errors ? true : undefined}
    >
      <legend>{legend}</legend>
      {options.map((option, index) => (
        <div key={option.value} className="payout-option">
          <input
            // the first option carries the group's id: a message about the group moves focus there
            id={index === 0 ? id : `${id}-${option.value}`}
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <label htmlFor={index === 0 ? id : `${id}-${option.value}`}>
            {option.label}
            {option.detail ? <span className="payout-option-detail">{option.detail}</span> : null}
          </label>
        </div>
      ))}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </fieldset>
  )
}

/** What a form's failure says, announced when it appears. */
export function FormFailure({ message }: { message: string | undefined }) {
  return message ? (
    <p className="alert" role="alert">
      {message}
    </p>
  ) : null
}
