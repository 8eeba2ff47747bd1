import Form from '@rjsf/core'
import ArrayField from '@rjsf/core/lib/components/fields/ArrayField.js'
import {
  getDefaultFormState,
  type Experimental_DefaultFormStateBehavior,
  type Field,
  type RegistryFieldsType,
  type RJSFSchema,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useNavigate } from '../routing/router.tsx'
import type { IntakeConfig, IntakeData } from '../../src/intake-config.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { intakeValidatorUrl } from '../forms/validator-module.ts'
import type { Signing, SigningReport } from '../forms/widgets/signing.ts'
import { submitIntake } from './api.ts'
import { AgreementBox } from '../forms/agreement-box.tsx'
import { AgreementSlotProvider } from '../forms/agreement-slot.tsx'
import { INTAKE_WIDGETS } from '../forms/widgets/registry.ts'
import { localIsoDate } from '../../src/agreement-context.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { useFormStrings } from '../i18n/use-form-strings.ts'
import { useLocale } from '../i18n/use-text.ts'
import { fieldName, useFieldMessages } from '../forms/use-field-messages.ts'
import { firstProblem, focusField } from '../forms/first-problem.ts'
import { submitFailure } from '../forms/submit-failure.ts'
import { WithValidator } from '../forms/with-validator.tsx'
import { ProofOfWorkProblem, useProofOfWork } from '../proof-of-work/use-proof-of-work.tsx'
import { useFormSignals } from '../fraud-signals/use-form-signals.ts'
import { TrapField } from '../fraud-signals/trap-field.tsx'

// RJSF answers a required boolean with false by itself; the claimant must choose Yes or No
const DEFAULTS_BEHAVIOR: Experimental_DefaultFormStateBehavior = {
  requiredBooleanDefault: 'skip',
  // the states are oneOf choices: none is picked for the claimant
  constAsDefaults: 'never',
}

// the app boxes are an array field, drawn as the form opens (the registry's own comes on first use)
const FIELDS: RegistryFieldsType = { ArrayField: ArrayField as Field }

const SUBMIT_LABEL = 'Submit My Claim'

type FormData = Partial<IntakeData>

/**
 * The main intake form, drawn by RJSF from the intake config. Messages show when a field is left or the
 * form is submitted, clear as soon as the field is edited, and nothing is sent while any rule fails.
 */
export function IntakeForm({ config }: { config: IntakeConfig }) {
  const { schema } = config
  // the agreement is drawn into the signature widget's slot, above the pad: read before it is signed
  return (
    <WithValidator url={intakeValidatorUrl()} schema={schema}>
      {(validator) => (
        <AgreementSlotProvider>
          <IntakeFormFields config={config} schema={schema} validator={validator} />
        </AgreementSlotProvider>
      )}
    </WithValidator>
  )
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
  // RJSF fills the schema's defaults in its own state; start ours from the same data (no consent box is
  // ticked: the meta-schema refuses a boolean default of true, so the claimant ticks each one)
  const [formData, setFormData] = useState<FormData>(
    () => getDefaultFormState(validator, schema, {}, schema, false, DEFAULTS_BEHAVIOR) as FormData,
  )
  const [alertText, setAlertText] = useState<string>()
  // what a refused submit found missing: stale once the claimant edits anything
  const [missingText, setMissingText] = useState<string>()
  const [isSubmitting, setIsSubmitting] = useState(false)
  const [failedAttempts, setFailedAttempts] = useState(0)
  const formRef = useRef<HTMLDivElement>(null)
  const uiSchema = useMemo(() => hideClosedApps(config), [config])
  const { locale, t } = useLocale()
  const translateString = useFormStrings()
  // the date printed in the agreement; the server signs with the same one
  const [agreementDate] = useState(localIsoDate)
  const signing = useRef<Signing>({ method: 'drawn' })
  const proofOfWork = useProofOfWork()
  const formSignals = useFormSignals()
  const agreementApp = useMemo(
    () =>
      intakeAgreementApp({
        config,
        chosen: formData.cashAdvanceApps ?? [],
        locale,
        noneChosen: t('the cash advance apps you choose'),
      }),
    [config, formData.cashAdvanceApps, locale, t],
  )
  const agreementAnswers = useMemo(() => ({ ...formData, phoneNumber: formData.phone }), [formData])
  const formContext = useMemo(() => {
    const report: SigningReport = { report: (next) => (signing.current = next) }
    return { signing: report }
  }, [])

  const check = useMemo(
    () => validateSubmission({ validator, schema, data: formData }),
    [validator, schema, formData],
  )
  const messages = useFieldMessages(check)

  // after a refused submit, the alert names the first field to fix, and focus goes to it
  useEffect(() => {
    if (failedAttempts === 0) return
    const problem = firstProblem(schema, uiSchema, check)
    if (problem) focusField(formRef.current, problem.field)
    else formRef.current?.querySelector('.alert')?.scrollIntoView({ block: 'center' })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on a new refused attempt
  }, [failedAttempts])

  // a checkbox or radio group is left only when focus moves outside the group, not to its next option
  const showFieldOnLeave = (id: string) => {
    setTimeout(() => {
      if (document.activeElement?.id.startsWith(`${id}-`)) return
      messages.leave(fieldName(id))
    })
  }

  const submit = async () => {
    if (isSubmitting) return
    if (!check.isValid) {
      messages.showAll()
      const problem = firstProblem(schema, uiSchema, check)
      if (problem) {
        setMissingText(
          t('Please complete {field}: {message}', { field: problem.label, message: problem.message }),
        )
      }
      setFailedAttempts((count) => count + 1)
      return
    }
    setAlertText(undefined)
    setIsSubmitting(true)
    const signals = formSignals.read()
    try {
      const created = await proofOfWork.send((headers) =>
        submitIntake({ data: formData, agreementDate, signing: signing.current, headers, signals }),
      )
      navigate('/thank-you', {
        state: { intakeId: created.id, reference: created.reference, steps: created.steps },
      })
    } catch (error) {
      setIsSubmitting(false)
      setAlertText(
        submitFailure(error, messages, (message) =>
          t('There was an error submitting your form. Please try again. Error: {message}', { message }),
        ),
      )
      setFailedAttempts((count) => count + 1)
    }
  }

  return (
    <div ref={formRef} {...formSignals.listeners}>
      <Form
        className="claim-form intake-form"
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        widgets={INTAKE_WIDGETS}
        fields={FIELDS}
        formContext={formContext}
        translateString={translateString}
        formData={formData}
        extraErrors={messages.extraErrors}
        experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOR}
        noHtml5Validate
        noValidate
        showErrorList={false}
        disabled={isSubmitting}
        onChange={(event, id) => {
          setFormData(event.formData as FormData)
          setMissingText(undefined)
          if (id) messages.change(fieldName(id))
        }}
        onBlur={showFieldOnLeave}
        onSubmit={() => void submit()}
      >
        <AgreementBox
          template={config.agreement.template}
          app={agreementApp}
          answers={agreementAnswers}
          date={agreementDate}
        />
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
        {/* never disabled: a keyboard user reaches it, and pressed early it says what is missing */}
        <button type="submit" className="submit" aria-disabled={isSubmitting}>
          {isSubmitting ? t('Submitting...') : t(SUBMIT_LABEL)}
        </button>
      </Form>
    </div>
  )
}
