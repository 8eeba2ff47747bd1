import type { RJSFSchema, UiSchema } from '@rjsf/utils'
import { fieldLabel, type SubmissionCheck } from '../../src/validate-submission.ts'

/** The first field with a problem, in the order the form shows them, with its label and message. */
export function firstProblem(
  schema: RJSFSchema,
  uiSchema: UiSchema,
  check: SubmissionCheck,
): { field: string; label: string; message: string } | undefined {
  const order = (uiSchema['ui:order'] as string[] | undefined) ?? Object.keys(schema.properties ?? {})
  const field = [...order, ...Object.keys(check.fields)].find((name) => check.fields[name])
  if (!field) return undefined
  return { field, label: fieldLabel(schema, field), message: check.fields[field]?.__errors[0] ?? '' }
}

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button, [tabindex]'

/**
 * Moves focus to a field's control: its input, the first option of a group, the signature pad or the
 * file picker, whichever the widget drew with the field's id (or the id of its first option).
 */
export function focusField(container: HTMLElement | null, field: string): void {
  const id = `root_${field}`
  const exact = container?.querySelector<HTMLElement>(`[id="${id}"]`)
  const control = [
    exact,
    container?.querySelector<HTMLElement>(`[id^="${id}-"]`),
    exact?.querySelector<HTMLElement>(FOCUSABLE),
    container?.querySelector<HTMLElement>(`[data-field="${field}"] ${FOCUSABLE}`),
  ].find((element) => element?.matches(FOCUSABLE))
  control?.scrollIntoView({ block: 'center' })
  control?.focus({ preventScroll: true })
}
