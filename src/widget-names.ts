/**
 * The widgets a form config may name in its uiSchema ("ui:widget"). Ours are drawn by the components of
 * client/forms/widgets/claim-widgets.ts, which must have one for each; the built-in ones are RJSF's own.
 * forms/form-config.schema.json lists the same names (src/widget-names.test.ts holds them equal).
 */
export const OWN_WIDGETS = [
  'phone',
  'countSelect',
  'screenshot',
  'signature',
  'radio',
  'checkboxes',
  'consent',
  'numericText',
] as const
export const BUILT_IN_WIDGETS = ['email', 'text', 'checkbox'] as const

export type OwnWidgetName = (typeof OWN_WIDGETS)[number]
export const WIDGET_NAMES: readonly string[] = [...OWN_WIDGETS, ...BUILT_IN_WIDGETS]
