import { lazy, Suspense, type ComponentType } from 'react'

/**
 * A component fetched the first time a form draws it; the rest of the form stays on screen meanwhile.
 * Made once per component: a new lazy component on every render would draw it afresh each time.
 */
export function onFirstUse<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): ComponentType<Props> {
  const Loaded = lazy(load)
  return function OnFirstUse(props: Props) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    )
  }
}
