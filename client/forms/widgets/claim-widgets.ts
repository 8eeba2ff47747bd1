import type { Widget } from '@rjsf/utils'
import type { OwnWidgetName } from '../../../src/widget-names.ts'
import { INTAKE_WIDGETS } from './registry.ts'
import { ScreenshotWidget } from './screenshot-widget.tsx'

/** A Step 2 form's widgets: every name of src/widget-names.ts (a missing one fails the type check). */
export const CLAIM_WIDGETS: Record<OwnWidgetName, Widget> & { SelectWidget: Widget } = {
  ...INTAKE_WIDGETS,
  screenshot: ScreenshotWidget,
}
