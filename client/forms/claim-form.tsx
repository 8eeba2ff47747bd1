import Form from '@rjsf/core'
import type { ErrorSchema, RegistryWidgetsType, ValidatorType } from '@rjsf/utils'
import { useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { localIsoDate } from '../../src/agreement-context.ts'
import { AgreementBox } from './agreement-box.tsx'
import { submitClaim } from './api.ts'
import { Loading } from '../ui/loading.tsx'
import { SubmitProgress } from './submit-progress.tsx'
import { usePrecompiledValidator } from './use-precompiled-validator.ts'
import { formValidatorUrl } from './validator-module.ts'
import { CountSelectWidget } from './widgets/count-select-widget.tsx'
import { PhoneWidget } from './widgets/phone-widget.tsx'
import { ScreenshotWidget, type ScreenshotContext } from './widgets/screenshot-widget.tsx'
import { SignatureWidget } from './widgets/signature-widget.tsx'

const WIDGETS: RegistryWidgetsType = {
  phone: PhoneWidget,
  countSelect: CountSelectWidget,
  screenshot: ScreenshotWidget,
  signature: SignatureWidget,
}

const INCOMPLETE_HINT =
  'Please complete all required fields, upload a screenshot, and provide your signature to enable submission'

type FormData = Record<string, unknown>

/** The one renderer of every app's Step 2 form, drawn from the app's config. */
export function ClaimForm({ config }: { config: FormConfig }) {
  const validatorState = usePrecompiledValidator(formValidatorUrl(config.slug), config.schema)
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
  return <ClaimFormFields config={config} validator={validatorState.validator} />
}

function ClaimFormFields({ config, validator }: { config: FormConfig; validator: ValidatorType }) {
  const navigate = useNavigate()
  const [formData, setFormData] = useState<FormData>({})
  const [shownFields, setShownFields] = useState<ReadonlySet<string>>(new Set())
  const [serverErrors, setServerErrors] = useState<FieldErrors>({})
  const [alertText, setAlertText] = useState<string>()
  const [progress, setProgress] = useState<number>()
  const screenshot = useRef<File | undefined>(undefined)
  // the date printed in the agreement; the server signs with the same one
  const [agreementDate] = useState(localIsoDate)
  const isSubmitting = progress !== undefined

  const check = useMemo(
    () => validateSubmission({ validator, schema: config.schema, data: formData }),
    [validator, config.schema, formData],
  )
  const extraErrors = useMemo(() => {
    const shown: FieldErrors = { ...serverErrors }
    for (const field of shownFields) {
      const fieldErrors = check.fields[field]
      if (fieldErrors) shown[field] = fieldErrors
    }
    return shown as ErrorSchema
  }, [check, serverErrors, shownFields])

  const formContext: ScreenshotContext = useMemo(
    () => ({
      screenshotPrompt: config.screenshotPrompt,
      setScreenshot: (file) => {
        screenshot.current = file
      },
    }),
    [config.screenshotPrompt],
  )

  // a field's message shows once the user leaves it, and clears as soon as it is edited
  const hideField = (field: string) => {
    setShownFields((fields) => without(fields, field))
    setServerErrors((errors) => {
      if (!(field in errors)) return errors
      const { [field]: _removed, ...rest } = errors
      return rest
    })
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (!check.isValid || !screenshot.current || isSubmitting) {
      setShownFields(new Set(Object.keys(check.fields)))
      return
    }
    setAlertText(undefined)
    setProgress(0)
    const { screenshotFile: _name, ...data } = formData
    try {
      const created = await submitClaim({
        slug: config.slug,
        data,
        agreementDate,
        screenshot: screenshot.current,
        onProgress: (fraction) => setProgress(Math.min(95, Math.round(fraction * 95))),
      })
      setProgress(100)
      await new Promise((resolve) => setTimeout(resolve, 250))
      navigate(`/${config.slug}-success`, { state: { claimId: created.id } })
    } catch (error) {
      setProgress(undefined)
      const appError = error instanceof AppError ? error : undefined
      if (appError?.fields) setServerErrors(appError.fields)
      setAlertText(
        appError?.code === 'DUPLICATE_SUBMISSION'
          ? appError.message
          : `Error submitting form: ${appError?.message ?? String(error)}`,
      )
    }
  }

  return (
    <Form
      className="claim-form"
      schema={config.schema}
      uiSchema={config.uiSchema}
      validator={validator}
      widgets={WIDGETS}
      formData={formData}
      formContext={formContext}
      extraErrors={extraErrors}
      noHtml5Validate
      noValidate
      showErrorList={false}
      disabled={isSubmitting}
      onChange={(event, id) => {
        setFormData(event.formData as FormData)
        if (id) hideField(fieldName(id))
      }}
      onBlur={(id) => setShownFields((fields) => new Set(fields).add(fieldName(id)))}
      onSubmit={() => void submit()}
    >
      <AgreementBox config={config} answers={formData} date={agreementDate} />
      <p className="consent">{config.agreement.consent}</p>
      {alertText ? (
        <div className="alert" role="alert">
          {alertText}
        </div>
      ) : null}
      {progress !== undefined ? <SubmitProgress percent={progress} /> : null}
      <button type="submit" className="submit" disabled={!check.isValid || isSubmitting}>
        {isSubmitting ? 'Submitting...' : config.submitLabel}
      </button>
      {!check.isValid && !isSubmitting ? <p className="hint">{INCOMPLETE_HINT}</p> : null}
    </Form>
  )
}

function fieldName(id: string): string {
  return id.replace(/^root_/, '')
}

function without(fields: ReadonlySet<string>, field: string): ReadonlySet<string> {
  if (!fields.has(field)) return fields
  const next = new Set(fields)
  next.delete(field)
  return next
}
