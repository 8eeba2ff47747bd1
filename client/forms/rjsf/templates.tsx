import BaseInputTemplate from '@rjsf/core/lib/components/templates/BaseInputTemplate.js'
import DescriptionField from '@rjsf/core/lib/components/templates/DescriptionField.js'
import FieldErrorTemplate from '@rjsf/core/lib/components/templates/FieldErrorTemplate.js'
import FieldHelpTemplate from '@rjsf/core/lib/components/templates/FieldHelpTemplate.js'
import FieldTemplate from '@rjsf/core/lib/components/templates/FieldTemplate/index.js'
import ObjectFieldTemplate from '@rjsf/core/lib/components/templates/ObjectFieldTemplate.js'
import TitleField from '@rjsf/core/lib/components/templates/TitleField.js'
import WrapIfAdditionalTemplate from '@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js'
import type { IconButtonProps, TemplatesType } from '@rjsf/utils'
import { onFirstUse } from './on-first-use.tsx'

type Buttons = TemplatesType['ButtonTemplates']

const iconButton = (
  name: 'CopyButton' | 'MoveDownButton' | 'MoveUpButton' | 'RemoveButton' | 'ClearButton',
) =>
  onFirstUse<IconButtonProps>(() =>
    import('@rjsf/core/lib/components/templates/ButtonTemplates/IconButton.js').then((module) => ({
      default: module[name],
    })),
  )

// the buttons of arrays and of added properties, and RJSF's own submit button (our forms draw theirs)
const BUTTONS: Buttons = {
  SubmitButton: onFirstUse(
    () => import('@rjsf/core/lib/components/templates/ButtonTemplates/SubmitButton.js'),
  ),
  AddButton: onFirstUse(() => import('@rjsf/core/lib/components/templates/ButtonTemplates/AddButton.js')),
  CopyButton: iconButton('CopyButton'),
  MoveDownButton: iconButton('MoveDownButton'),
  MoveUpButton: iconButton('MoveUpButton'),
  RemoveButton: iconButton('RemoveButton'),
  ClearButton: iconButton('ClearButton'),
}

const ArrayFieldDescriptionTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js'),
)
const ArrayFieldItemTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js'),
)
const ArrayFieldItemButtonsTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js'),
)
const ArrayFieldTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/ArrayFieldTemplate.js'),
)
const ArrayFieldTitleTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js'),
)
const CyclicSchemaExpandTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js'),
)
const ErrorList = onFirstUse(() => import('@rjsf/core/lib/components/templates/ErrorList.js'))
const FallbackFieldTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/FallbackFieldTemplate.js'),
)
const GridTemplate = onFirstUse(() => import('@rjsf/core/lib/components/templates/GridTemplate.js'))
const MultiSchemaFieldTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/MultiSchemaFieldTemplate.js'),
)
const OptionalDataControlsTemplate = onFirstUse(
  () => import('@rjsf/core/lib/components/templates/OptionalDataControlsTemplate.js'),
)
const UnsupportedField = onFirstUse(() => import('@rjsf/core/lib/components/templates/UnsupportedField.js'))

/**
 * What RJSF's default registry gets for its templates (see vite.config.ts): a field's frame, label,
 * help, error and text input as they are, and the templates of arrays, choices among schemas, the
 * error list and the buttons, which a form's first paint never draws, fetched on first use.
 */
export default function templates(): TemplatesType {
  return {
    ArrayFieldDescriptionTemplate,
    ArrayFieldItemTemplate,
    ArrayFieldItemButtonsTemplate,
    ArrayFieldTemplate,
    ArrayFieldTitleTemplate,
    ButtonTemplates: BUTTONS,
    BaseInputTemplate,
    CyclicSchemaExpandTemplate,
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: ErrorList,
    FallbackFieldTemplate,
    FieldTemplate,
    FieldErrorTemplate,
    FieldHelpTemplate,
    GridTemplate,
    MultiSchemaFieldTemplate,
    ObjectFieldTemplate,
    OptionalDataControlsTemplate,
    TitleFieldTemplate: TitleField,
    UnsupportedFieldTemplate: UnsupportedField,
    WrapIfAdditionalTemplate,
  }
}
