import type { WidgetProps } from '@rjsf/utils'

/**
 * The main consent's checkbox. The agreement it names stands in full above the signature pad (the
 * intake form draws it there), so it is read before the claimant signs and ticks this box.
 */
export function ConsentWidget(props: WidgetProps) {
  const Checkbox = props.registry.widgets.CheckboxWidget!
  // the config hides the field's own label (ui:options.label false): the checkbox carries it
  return <Checkbox {...props} hideLabel={false} />
}
