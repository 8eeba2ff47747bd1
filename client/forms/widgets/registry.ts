import type { Widget } from '@rjsf/utils'
import type { OwnWidgetName } from '../../../src/widget-names.ts'
import { CheckboxGroupWidget, RadioGroupWidget } from '../../intake/widgets/choice-group-widgets.tsx'
import { ConsentWidget } from '../../intake/widgets/consent-widget.tsx'
import { CountSelectWidget } from './count-select-widget.tsx'
import { NumericTextWidget } from './numeric-text-widget.tsx'
import { PhoneWidget } from './phone-widget.tsx'
import { SelectWidget } from './select-widget.tsx'
import { SignatureWidget } from './signature-widget.tsx'

/**
 * The main intake's widgets: one component for each name of src/widget-names.ts but the screenshot (a
 * missing or extra one fails the type check), and RJSF's dropdown replaced by ours, which keeps the
 * field's autocomplete token. The intake sends no file, so the screenshot picker is a Step 2 form's
 * alone (claim-widgets.ts), and stays off the main page's first bytes.
 */
export const INTAKE_WIDGETS: Record<Exclude<OwnWidgetName, 'screenshot'>, Widget> & { SelectWidget: Widget } =
  {
    phone: PhoneWidget,
    countSelect: CountSelectWidget,
    signature: SignatureWidget,
    radio: RadioGroupWidget,
    checkboxes: CheckboxGroupWidget,
    consent: ConsentWidget,
    numericText: NumericTextWidget,
    SelectWidget,
  }
