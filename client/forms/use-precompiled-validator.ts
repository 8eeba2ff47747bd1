import type { RJSFSchema, ValidatorType } from '@rjsf/utils'
import { createPrecompiledValidator } from '@rjsf/validator-ajv8'
import { useEffect, useState } from 'react'
import { loadAllOfMerge, needsAllOfMerge } from './rjsf/shallow-all-of-merge.ts'
import { importValidatorFunctions } from './validator-module.ts'

export type PrecompiledValidatorState =
  | { status: 'loading' }
  | { status: 'ready'; validator: ValidatorType }
  | { status: 'failed'; message: string }

const FAILED_MESSAGE = "the form's checks could not be loaded"

/**
 * RJSF's validator around the server's precompiled functions for `schema` (the module at `url`), ready
 * once RJSF can draw the schema: with its allOf merge fetched too when the schema needs it.
 */
export function usePrecompiledValidator(url: string, schema: RJSFSchema): PrecompiledValidatorState {
  const [state, setState] = useState<PrecompiledValidatorState>({ status: 'loading' })
  useEffect(() => {
    let isCurrent = true
    Promise.all([importValidatorFunctions(url), needsAllOfMerge(schema) ? loadAllOfMerge() : undefined]).then(
      ([validateFns]) => {
        if (!isCurrent) return
        try {
          setState({ status: 'ready', validator: createPrecompiledValidator(validateFns, schema) })
        } catch {
          // the module was built from another version of the schema (the server restarted with new forms)
          setState({ status: 'failed', message: FAILED_MESSAGE })
        }
      },
      () => isCurrent && setState({ status: 'failed', message: FAILED_MESSAGE }),
    )
    return () => {
      isCurrent = false
    }
  }, [url, schema])
  return state
}
