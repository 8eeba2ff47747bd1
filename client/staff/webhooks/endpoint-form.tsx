import { useId, useState, type FormEvent } from 'react'
import {
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type CreatedWebhook,
  type WebhookEventType,
} from '../../../src/api/webhooks.ts'
import { addEndpoint } from './webhooks-api.ts'

/** URL, events and "include claimant details"; the server answers with the endpoint and its secret. */
export function EndpointForm({
  onCreated,
  onError,
}: {
  onCreated: (created: CreatedWebhook) => void
  onError: (error: unknown) => void
}) {
  const urlId = useId()
  const urlHelpId = useId()
  const detailsHelpId = useId()
  const errorId = useId()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<WebhookEventType[]>([])
  const [includeDetails, setIncludeDetails] = useState(false)
  const [error, setError] = useState<string>()
  const [isSending, setIsSending] = useState(false)

  const toggle = (event: WebhookEventType, isOn: boolean) =>
    setEvents((current) =>
      WEBHOOK_EVENT_TYPES.filter((type) => (type === event ? isOn : current.includes(type))),
    )

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (isSending) return
    if (events.length === 0) {
      setError('Choose at least one event to send.')
      return
    }
    setIsSending(true)
    setError(undefined)
    try {
      const created = await addEndpoint({ url, events, includeDetails })
      setUrl('')
      setEvents([])
      setIncludeDetails(false)
      onCreated(created)
    } catch (caught) {
      onError(caught)
      setError(`The endpoint was not added: ${(caught as Error).message}.`)
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form
      className="webhook-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-describedby={error ? errorId : undefined}
    >
      <div className="form-group">
        <label htmlFor={urlId}>Endpoint URL</label>
        <p id={urlHelpId} className="field-help">
          The address of your other system that takes the events, starting with https://
        </p>
        <input
          id={urlId}
          className="form-control"
          type="url"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          required
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          value={url}
          aria-describedby={urlHelpId}
          onChange={(change) => setUrl(change.target.value)}
        />
      </div>
      <fieldset className="form-group">
        <legend>Events</legend>
        <ul className="webhook-events">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <li key={type}>
              <label className="check-option">
                <input
                  type="checkbox"
                  name={`event-${type}`}
                  checked={events.includes(type)}
                  onChange={(change) => toggle(type, change.target.checked)}
                />
                <span>
                  <code>{type}</code> {WEBHOOK_EVENT_LABELS[type]}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="form-group">
        <label className="check-option">
          <input
            type="checkbox"
            name="include-details"
            checked={includeDetails}
            aria-describedby={detailsHelpId}
            onChange={(change) => setIncludeDetails(change.target.checked)}
          />
          Include claimant details
        </label>
        <p id={detailsHelpId} className="field-help">
          Adds the claimant&apos;s first and last name, e-mail and phone. Without it, each event carries only
          ids, the app and the status.
        </p>
      </div>
      {error ? (
        <p id={errorId} className="alert" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Adding...' : 'Add endpoint'}
      </button>
    </form>
  )
}
