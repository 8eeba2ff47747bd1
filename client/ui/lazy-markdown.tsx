import { lazy, Suspense, type ComponentProps } from 'react'
import type { Markdown as MarkdownToJsx } from 'markdown-to-jsx/react'

const RealMarkdown = lazy(async () => ({ default: (await import('markdown-to-jsx/react')).Markdown }))

/**
 * What RJSF gets for `markdown-to-jsx/react` (see vite.config.ts): the same component, loaded on first
 * use. RJSF renders markdown only for `ui:enableMarkdownInDescription`/`Help` and its own config-error
 * notes, which our forms never show, so claimants download the parser only if one is ever shown.
 */
export function Markdown(props: ComponentProps<typeof MarkdownToJsx>) {
  return (
    <Suspense fallback={props.children}>
      <RealMarkdown {...props} />
    </Suspense>
  )
}
