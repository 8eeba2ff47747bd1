import BooleanField from '@rjsf/core/lib/components/fields/BooleanField.js'
import NumberField from '@rjsf/core/lib/components/fields/NumberField.js'
import ObjectField from '@rjsf/core/lib/components/fields/ObjectField.js'
import SchemaField from '@rjsf/core/lib/components/fields/SchemaField.js'
import StringField from '@rjsf/core/lib/components/fields/StringField.js'
import type { FieldProps, RegistryFieldsType } from '@rjsf/utils'
import { onFirstUse } from './on-first-use.tsx'

const CyclicSchemaField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/CyclicSchemaField.js'),
)
const FallbackField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/FallbackField.js'),
)
const NullField = onFirstUse<FieldProps>(() => import('@rjsf/core/lib/components/fields/NullField.js'))
const OptionalDataControlsField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/OptionalDataControlsField.js'),
)
const ArrayField = onFirstUse<FieldProps>(() => import('@rjsf/core/lib/components/fields/ArrayField.js'))
const LayoutGridField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/LayoutGridField.js'),
)
const LayoutHeaderField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/LayoutHeaderField.js'),
)
const LayoutMultiSchemaField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/LayoutMultiSchemaField.js'),
)
const MultiSchemaField = onFirstUse<FieldProps>(
  () => import('@rjsf/core/lib/components/fields/MultiSchemaField.js'),
)

/**
 * What RJSF's default registry gets for its fields (see vite.config.ts): the object, text, number and
 * yes/no fields as they are, and those our forms never draw as they open (arrays, oneOf/anyOf choices,
 * the layout grid, nulls, cycles, optional-data controls and the fallback for unknown types) fetched
 * on first use. The main form, whose app boxes are an array, passes RJSF's ArrayField itself.
 */
export default function fields(): RegistryFieldsType {
  return {
    AnyOfField: MultiSchemaField,
    ArrayField,
    BooleanField,
    CyclicSchemaField,
    FallbackField,
    LayoutGridField,
    LayoutHeaderField,
    LayoutMultiSchemaField,
    NumberField,
    ObjectField,
    OneOfField: MultiSchemaField,
    OptionalDataControlsField,
    SchemaField,
    StringField,
    NullField,
  }
}
