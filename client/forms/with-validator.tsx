import type { RJSFSchema, ValidatorType } from '@rjsf/utils'
import type { ReactNode } from 'react'
import { useText } from '../i18n/use-text.ts'
import { Loading } from '../ui/loading.tsx'
import { usePrecompiledValidator } from './use-precompiled-validator.ts'

/**
 * A claimant form once the server's precompiled checks of its schema (the module at `url`) are in: a
 * note while they load, and what to do if they cannot be.
 */
export function WithValidator({
  url,
  schema,
  children,
}: {
  url: string
  schema: RJSFSchema
  children: (validator: ValidatorType) => ReactNode
}) {
  const t = useText()
  const state = usePrecompiledValidator(url, schema)
  if (state.status === 'loading') return <Loading label="Loading form..." />
  if (state.status === 'failed') {
    return (
      <div className="card-body">
        <p className="alert" role="alert">
          {t('The form could not be loaded ({message}). Please reload the page in a moment.', {
            message: t(state.message),
          })}
        </p>
      </div>
    )
  }
  return children(state.validator)
}
