import Form from '@rjsf/core'
import type { ValidatorType } from '@rjsf/utils'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from '../routing/router.tsx'
import type { FormConfig } from '../../src/form-config.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { localIsoDate } from '../../src/agreement-context.ts'
import { AgreementBox } from './agreement-box.tsx'
import { submitClaim } from './api.ts'
import { fieldName, useFieldMessages } from './use-field-messages.ts'
import { useLocale } from '../i18n/use-text.ts'
import { firstProblem, focusField } from './first-problem.ts'
import { submitFailure } from './submit-failure.ts'
import { SubmitProgress } from './submit-progress.tsx'
import { WithValidator } from './with-validator.tsx'
import { formValidatorUrl } from './validator-module.ts'
import type { ScreenshotContext } from './widgets/screenshot-widget.tsx'
import { CLAIM_WIDGETS } from './widgets/claim-widgets.ts'
import { ProofOfWorkProblem, useProofOfWork } from '../proof-of-work/use-proof-of-work.tsx'
import type { Signing, SigningReport } from './widgets/signing.ts'
import { forgetPrefill, usePrefill } from './use-prefill.ts'
import { useFormSignals } from '../fraud-signals/use-form-signals.ts'
import { TrapField } from '../fraud-signals/trap-field.tsx'

const INCOMPLETE_HINT =
  'Please complete all required fields, upload a screenshot, and provide your signature to enable submission'
const HINT_ID = 'claim-submit-hint'

type FormData = Record<string, unknown>

/** The one renderer of every app's Step 2 form, drawn from the app's config. */
export function ClaimForm({ config }: { config: FormConfig }) {
  return (
    <WithValidator url={formValidatorUrl(config.slug)} schema={config.schema}>
      {(validator) => <ClaimFormFields config={config} validator={validator} />}
    </WithValidator>
  )
}

function ClaimFormFields({ config, validator }: { config: FormConfig; validator: ValidatorType }) {
  const navigate = useNavigate()
  const { locale, t } = useLocale()
  const formRef = useRef<HTMLDivElement>(null)
  const [formData, setFormData] = useState<FormData>({})
  const [alertText, setAlertText] = useState<string>()
  // what a refused submit found missing: stale once the claimant edits anything
  const [missingText, setMissingText] = useState<string>()
  const [progress, setProgress] = useState<number>()
  const screenshot = useRef<File | undefined>(undefined)
  // the date printed in the agreement; the server signs with the same one
  const [agreementDate] = useState(localIsoDate)
  const isSubmitting = progress !== undefined
  const proofOfWork = useProofOfWork()
  const prefill = usePrefill(config.slug)
  const formSignals = useFormSignals()
  // the main form's name and contact fill what the claimant has not typed yet; they can still change them
  useEffect(() => {
    if (!prefill) return
    setFormData((typed) => {
      const filled = { ...typed }
      for (const [field, value] of Object.entries(prefill.answers)) if (!filled[field]) filled[field] = value
      return filled
    })
  }, [prefill])

  const check = useMemo(
    () => validateSubmission({ validator, schema: config.schema, data: formData }),
    [validator, config.schema, formData],
  )
  const messages = useFieldMessages(check)

  const signing = useRef<Signing>({ method: 'drawn' })
  const formContext: ScreenshotContext & { signing: SigningReport } = useMemo(
    () => ({
      screenshotPrompt: config.screenshotPrompt,
      setScreenshot: (file) => {
        screenshot.current = file
      },
      signing: { report: (next) => (signing.current = next), canAdopt: prefill !== undefined },
    }),
    [config.screenshotPrompt, prefill],
  )

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (isSubmitting) return
    if (!check.isValid || !screenshot.current) {
      messages.showAll()
      const problem = firstProblem(config.schema, config.uiSchema, check)
      if (problem) {
        setMissingText(
          t('Please complete {field}: {message}', { field: problem.label, message: problem.message }),
        )
        focusField(formRef.current, problem.field)
      }
      return
    }
    setAlertText(undefined)
    setProgress(0)
    const { screenshotFile: _name, ...answers } = formData
    // an adopted signature is the main form's, which the server takes: the field holds only a stand-in
    if (signing.current.method === 'adopted') delete answers.signature
    const signals = formSignals.read()
    try {
      const file = screenshot.current
      const created = await proofOfWork.send((headers) =>
        submitClaim({
          slug: config.slug,
          data: answers,
          agreementDate,
          signing: signing.current,
          screenshot: file,
          onProgress: (fraction) => setProgress(Math.min(95, Math.round(fraction * 95))),
          headers,
          locale,
          journeyToken: prefill?.token,
          signals,
        }),
      )
      forgetPrefill(config.slug)
      setProgress(100)
      await new Promise((resolve) => setTimeout(resolve, 250))
      navigate(`/${config.slug}-success`, {
        state: { claimId: created.id, nextSteps: created.nextSteps },
      })
    } catch (error) {
      setProgress(undefined)
      setAlertText(
        submitFailure(error, messages, (message) => t('Error submitting form: {message}', { message })),
      )
    }
  }

  return (
    <div ref={formRef} {...formSignals.listeners}>
      <Form
        className="claim-form"
        schema={config.schema}
        uiSchema={config.uiSchema}
        validator={validator}
        widgets={CLAIM_WIDGETS}
        formData={formData}
        formContext={formContext}
        extraErrors={messages.extraErrors}
        noHtml5Validate
        noValidate
        showErrorList={false}
        disabled={isSubmitting}
        onChange={(event, id) => {
          setFormData(event.formData as FormData)
          setMissingText(undefined)
          if (id) messages.change(fieldName(id))
        }}
        onBlur={(id) => messages.leave(fieldName(id))}
        onSubmit={() => void submit()}
      >
        <AgreementBox
          template={config.agreement.template}
          app={config}
          answers={formData}
          date={agreementDate}
        />
        <p className="consent">{config.agreement.consent}</p>
        <TrapField inputRef={formSignals.trap} />
        {alertText ? (
          <div className="alert" role="alert">
            {alertText}
          </div>
        ) : !isSubmitting ? (
          <ProofOfWorkProblem proofOfWork={proofOfWork} />
        ) : null}
        {missingText ? (
          <div className="alert" role="alert">
            {missingText}
          </div>
        ) : null}
        {progress !== undefined ? <SubmitProgress percent={progress} /> : null}
        {/* stays in the Tab order while incomplete: pressed, it says what is missing and goes there */}
        <button
          type="submit"
          className="submit"
          aria-disabled={!check.isValid || isSubmitting}
          aria-describedby={!check.isValid && !isSubmitting ? HINT_ID : undefined}
        >
          {isSubmitting ? t('Submitting...') : config.submitLabel}
        </button>
        {!check.isValid && !isSubmitting ? (
          <p className="hint" id={HINT_ID}>
            {t(INCOMPLETE_HINT)}
          </p>
        ) : null}
      </Form>
    </div>
  )
}
