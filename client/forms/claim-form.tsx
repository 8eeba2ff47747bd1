import Form from '@rjsf/core'
import type { RegistryWidgetsType, ValidatorType } from '@rjsf/utils'
import { useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { localIsoDate } from '../../src/agreement-context.ts'
import { AgreementBox } from './agreement-box.tsx'
import { submitClaim } from './api.ts'
import { fieldName, useFieldMessages } from './use-field-messages.ts'
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
  const messages = useFieldMessages(check)

  const formContext: ScreenshotContext = useMemo(
    () => ({
      screenshotPrompt: config.screenshotPrompt,
      setScreenshot: (file) => {
        screenshot.current = file
      },
    }),
    [config.screenshotPrompt],
  )

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (!check.isValid || !screenshot.current || isSubmitting) {
      messages.showAll()
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
      if (appError?.fields) messages.setServerErrors(appError.fields)
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
      extraErrors={messages.extraErrors}
      noHtml5Validate
      noValidate
      showErrorList={false}
      disabled={isSubmitting}
      onChange={(event, id) => {
        setFormData(event.formData as FormData)
        if (id) messages.hide(fieldName(id))
      }}
      onBlur={(id) => messages.show(fieldName(id))}
      onSubmit={() => void submit()}
    >
      <AgreementBox
        template={config.agreement.template}
        app={config}
        answers={formData}
        date={agreementDate}
      />
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
