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

/**
 * Moves focus to a field's control: its input, the first option of a group, the signature pad or the
 * file picker, whichever the widget drew with the field's id (or the id of its first option).
 */
export function focusField(container: HTMLElement | null, field: string): void {
  const id = `root_${field}`
  const control =
    container?.querySelector<HTMLElement>(`[id="${id}"]:not([type="hidden"])`) ??
    container?.querySelector<HTMLElement>(`[id^="${id}-"]`) ??
    container?.querySelector<HTMLElement>(`[data-field="${field}"] [tabindex], [data-field="${field}"] button`)
  control?.scrollIntoView({ block: 'center' })
  control?.focus({ preventScroll: true })
}
