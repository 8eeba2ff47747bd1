import type { Widget } from '@rjsf/utils'
import type { OwnWidgetName } from '../../../src/widget-names.ts'
import { CheckboxGroupWidget, RadioGroupWidget } from '../../intake/widgets/choice-group-widgets.tsx'
import { ConsentWidget } from '../../intake/widgets/consent-widget.tsx'
import { CountSelectWidget } from './count-select-widget.tsx'
import { NumericTextWidget } from './numeric-text-widget.tsx'
import { PhoneWidget } from './phone-widget.tsx'
import { ScreenshotWidget } from './screenshot-widget.tsx'
import { SelectWidget } from './select-widget.tsx'
import { SignatureWidget } from './signature-widget.tsx'

/**
 * Every form's widgets: one component for each name of src/widget-names.ts (a missing or extra one
 * fails the type check), and RJSF's dropdown replaced by ours, which keeps the field's autocomplete token.
 */
export const WIDGETS: Record<OwnWidgetName, Widget> & { SelectWidget: Widget } = {
  phone: PhoneWidget,
  countSelect: CountSelectWidget,
  screenshot: ScreenshotWidget,
  signature: SignatureWidget,
  radio: RadioGroupWidget,
  checkboxes: CheckboxGroupWidget,
  consent: ConsentWidget,
  numericText: NumericTextWidget,
  SelectWidget,
}
