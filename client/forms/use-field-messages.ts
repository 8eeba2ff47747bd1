import type { ErrorSchema } from '@rjsf/utils'
import { useMemo, useState } from 'react'
import type { FieldErrors } from '../../src/app-error.ts'
import type { SubmissionCheck } from '../../src/validate-submission.ts'

/**
 * When a form shows a field's message: after a submit attempt, or once the claimant changed the field
 * and left it; never for tabbing past a field or group untouched. An edit hides the field's message
 * until it is left again. The server's messages from a refused submission show until an edit.
 */
export function useFieldMessages(check: SubmissionCheck) {
  const [shownFields, setShownFields] = useState<ReadonlySet<string>>(new Set())
  const [changedFields, setChangedFields] = useState<ReadonlySet<string>>(new Set())
  const [serverErrors, setServerErrors] = useState<FieldErrors>({})
  const extraErrors = useMemo(() => {
    const shown: FieldErrors = { ...serverErrors }
    for (const field of shownFields) {
      const fieldErrors = check.fields[field]
      if (fieldErrors) shown[field] = fieldErrors
    }
    return shown as ErrorSchema
  }, [check, serverErrors, shownFields])

  return {
    extraErrors,
    /** The claimant left the field: its message shows if they had changed it. */
    leave: (field: string) => {
      if (changedFields.has(field)) setShownFields((fields) => new Set(fields).add(field))
    },
    showAll: () => setShownFields(new Set(Object.keys(check.fields))),
    /** The claimant edited the field. */
    change: (field: string) => {
      setChangedFields((fields) => (fields.has(field) ? fields : new Set(fields).add(field)))
      setShownFields((fields) => without(fields, field))
      setServerErrors((errors) => {
        if (!(field in errors)) return errors
        const { [field]: _removed, ...rest } = errors
        return rest
      })
    },
    setServerErrors,
  }
}

/** 'root_isOver18' and an option's id 'root_isOver18-0' both name the field 'isOver18'. */
export function fieldName(id: string): string {
  return id.replace(/^root_/, '').replace(/-\d+$/, '')
}

function without(fields: ReadonlySet<string>, field: string): ReadonlySet<string> {
  if (!fields.has(field)) return fields
  const next = new Set(fields)
  next.delete(field)
  return next
}
