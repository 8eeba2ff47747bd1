import CheckboxesWidget from '@rjsf/core/lib/components/widgets/CheckboxesWidget.js'
import CheckboxWidget from '@rjsf/core/lib/components/widgets/CheckboxWidget.js'
import EmailWidget from '@rjsf/core/lib/components/widgets/EmailWidget.js'
import TextWidget from '@rjsf/core/lib/components/widgets/TextWidget.js'
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils'
import type { ComponentType } from 'react'
import { onFirstUse } from './on-first-use.tsx'

const widget = (load: () => Promise<{ default: ComponentType<WidgetProps> }>) => onFirstUse(load)

const AltDateWidget = widget(() => import('@rjsf/core/lib/components/widgets/AltDateWidget.js'))
const AltDateTimeWidget = widget(() => import('@rjsf/core/lib/components/widgets/AltDateTimeWidget.js'))
const ColorWidget = widget(() => import('@rjsf/core/lib/components/widgets/ColorWidget.js'))
const DateWidget = widget(() => import('@rjsf/core/lib/components/widgets/DateWidget.js'))
const DateTimeWidget = widget(() => import('@rjsf/core/lib/components/widgets/DateTimeWidget.js'))
const FileWidget = widget(() => import('@rjsf/core/lib/components/widgets/FileWidget.js'))
const HiddenWidget = widget(() => import('@rjsf/core/lib/components/widgets/HiddenWidget.js'))
const PasswordWidget = widget(() => import('@rjsf/core/lib/components/widgets/PasswordWidget.js'))
const RadioWidget = widget(() => import('@rjsf/core/lib/components/widgets/RadioWidget.js'))
const RangeWidget = widget(() => import('@rjsf/core/lib/components/widgets/RangeWidget.js'))
const RatingWidget = widget(() => import('@rjsf/core/lib/components/widgets/RatingWidget.js'))
const SelectWidget = widget(() => import('@rjsf/core/lib/components/widgets/SelectWidget.js'))
const TextareaWidget = widget(() => import('@rjsf/core/lib/components/widgets/TextareaWidget.js'))
const TimeWidget = widget(() => import('@rjsf/core/lib/components/widgets/TimeWidget.js'))
const UpDownWidget = widget(() => import('@rjsf/core/lib/components/widgets/UpDownWidget.js'))
const URLWidget = widget(() => import('@rjsf/core/lib/components/widgets/URLWidget.js'))

/**
 * What RJSF's default registry gets for its widgets (see vite.config.ts): those the forms draw as they
 * open (text, e-mail, a checkbox, and the checkbox group client/intake/widgets/ wraps) as they are,
 * and the rest, which no form of ours draws (it has its own dropdown, radios and file picker in
 * client/forms/widgets/), fetched on first use.
 */
export default function widgets(): RegistryWidgetsType {
  return {
    AltDateWidget,
    AltDateTimeWidget,
    CheckboxWidget,
    CheckboxesWidget,
    ColorWidget,
    DateWidget,
    DateTimeWidget,
    EmailWidget,
    FileWidget,
    HiddenWidget,
    PasswordWidget,
    RadioWidget,
    RangeWidget,
    RatingWidget,
    SelectWidget,
    TextWidget,
    TextareaWidget,
    TimeWidget,
    UpDownWidget,
    URLWidget,
  }
}
