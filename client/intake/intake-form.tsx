import Form from '@rjsf/core'
import {
  getDefaultFormState,
  type ErrorSchema,
  type Experimental_DefaultFormStateBehavior,
  type RegistryWidgetsType,
  type RJSFSchema,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import type { IntakeConfig, IntakeData } from '../../src/intake-config.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { usePrecompiledValidator } from '../forms/use-precompiled-validator.ts'
import { INTAKE_VALIDATOR_URL } from '../forms/validator-module.ts'
import { PhoneWidget } from '../forms/widgets/phone-widget.tsx'
import { SignatureWidget } from '../forms/widgets/signature-widget.tsx'
import { Loading } from '../ui/loading.tsx'
import { submitIntake } from './api.ts'
import { CheckboxGroupWidget, RadioGroupWidget } from './widgets/choice-group-widgets.tsx'

const WIDGETS: RegistryWidgetsType = {
  phone: PhoneWidget,
  signature: SignatureWidget,
  radio: RadioGroupWidget,
  checkboxes: CheckboxGroupWidget,
}

// RJSF answers a required boolean with false by itself; the claimant must choose Yes or No
const DEFAULTS_BEHAVIOR: Experimental_DefaultFormStateBehavior = { requiredBooleanDefault: 'skip' }

const SUBMIT_LABEL = 'Submit My Claim'

type FormData = Partial<IntakeData>

/**
 * The main intake form, drawn by RJSF from the intake config. Messages show when a field is left or the
 * form is submitted, clear as soon as the field is edited, and nothing is sent while any rule fails.
 */
export function IntakeForm({ config }: { config: IntakeConfig }) {
  const { schema } = config
  const validatorState = usePrecompiledValidator(INTAKE_VALIDATOR_URL, schema)
  if (validatorState.status === 'loading') return <Loading label="Loading form..." />
  if (validatorState.status === 'failed') {
    return (
      <div className="card-body">
        <p className="alert" role="alert">
          The form could not be loaded ({validatorState.message}). Please reload the page in a moment.
        </p>
      </div>
    )
  }
  return <IntakeFormFields config={config} schema={schema} validator={validatorState.validator} />
}

/**
 * The config's uiSchema with the closed apps left out of the app checkboxes, so they can be neither
 * ticked nor sent. The schema stays the server's own, which keeps its precompiled validator valid.
 */
function hideClosedApps({ uiSchema, closedApps }: IntakeConfig): UiSchema {
  const closed = Object.keys(closedApps)
  if (closed.length === 0) return uiSchema
  const apps = (uiSchema.cashAdvanceApps ?? {}) as UiSchema
  return {
    ...uiSchema,
    cashAdvanceApps: { ...apps, 'ui:options': { ...apps['ui:options'], hiddenValues: closed } },
  }
}

function IntakeFormFields({
  config,
  schema,
  validator,
}: {
  config: IntakeConfig
  schema: RJSFSchema
  validator: ValidatorType
}) {
  const navigate = useNavigate()
  // RJSF fills the schema defaults (both consents ticked) in its own state; start ours from the same data
  const [formData, setFormData] = useState<FormData>(
    () => getDefaultFormState(validator, schema, {}, schema, false, DEFAULTS_BEHAVIOR) as FormData,
  )
  const [shownFields, setShownFields] = useState<ReadonlySet<string>>(new Set())
  const [serverErrors, setServerErrors] = useState<FieldErrors>({})
  const [alertText, setAlertText] = useState<string>()
  const [isSubmitting, setIsSubmitting] = useState(false)
  const [failedAttempts, setFailedAttempts] = useState(0)
  const formRef = useRef<HTMLDivElement>(null)
  const uiSchema = useMemo(() => hideClosedApps(config), [config])

  const check = useMemo(
    () => validateSubmission({ validator, schema, data: formData }),
    [validator, schema, formData],
  )
  const extraErrors = useMemo(() => {
    const shown: FieldErrors = { ...serverErrors }
    for (const field of shownFields) {
      const fieldErrors = check.fields[field]
      if (fieldErrors) shown[field] = fieldErrors
    }
    return shown as ErrorSchema
  }, [check, serverErrors, shownFields])

  // after a refused submit, take the claimant to the first message (on a phone it is often off screen)
  useEffect(() => {
    if (failedAttempts === 0) return
    const first = formRef.current?.querySelector('.has-error, .alert')
    first?.scrollIntoView({ block: 'center' })
    const control = first?.querySelector<HTMLElement>('input, select, textarea')
    control?.focus({ preventScroll: true })
  }, [failedAttempts])

  const hideField = (field: string) => {
    setShownFields((fields) => without(fields, field))
    setServerErrors((errors) => {
      if (!(field in errors)) return errors
      const { [field]: _removed, ...rest } = errors
      return rest
    })
  }

  // a checkbox or radio group is left only when focus moves outside the group, not to its next option
  const showFieldOnLeave = (id: string) => {
    setTimeout(() => {
      if (document.activeElement?.id.startsWith(`${id}-`)) return
      setShownFields((fields) => new Set(fields).add(fieldName(id)))
    })
  }

  const submit = async () => {
    if (isSubmitting) return
    if (!check.isValid) {
      setShownFields(new Set(Object.keys(check.fields)))
      setFailedAttempts((count) => count + 1)
      return
    }
    setAlertText(undefined)
    setIsSubmitting(true)
    try {
      const created = await submitIntake(formData)
      navigate('/thank-you', { state: { intakeId: created.id } })
    } catch (error) {
      setIsSubmitting(false)
      const appError = error instanceof AppError ? error : undefined
      if (appError?.fields) setServerErrors(appError.fields)
      setAlertText(
        appError?.code === 'DUPLICATE_SUBMISSION'
          ? appError.message
          : `There was an error submitting your form. Please try again. Error: ${appError?.message ?? String(error)}`,
      )
      setFailedAttempts((count) => count + 1)
    }
  }

  return (
    <div ref={formRef}>
      <Form
        className="claim-form intake-form"
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        widgets={WIDGETS}
        formData={formData}
        extraErrors={extraErrors}
        experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOR}
        noHtml5Validate
        noValidate
        showErrorList={false}
        disabled={isSubmitting}
        onChange={(event, id) => {
          setFormData(event.formData as FormData)
          if (id) hideField(fieldName(id))
        }}
        onBlur={showFieldOnLeave}
        onSubmit={() => void submit()}
      >
        {alertText ? (
          <div className="alert" role="alert">
            {alertText}
          </div>
        ) : null}
        <button type="submit" className="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Submitting...' : SUBMIT_LABEL}
        </button>
      </Form>
    </div>
  )
}

/** 'root_isOver18' and the option ids 'root_isOver18-0' all name the field 'isOver18'. */
function fieldName(id: string): string {
  return id.replace(/^root_/, '').replace(/-\d+$/, '')
}

function without(fields: ReadonlySet<string>, field: string): ReadonlySet<string> {
  if (!fields.has(field)) return fields
  const next = new Set(fields)
  next.delete(field)
  return next
}
