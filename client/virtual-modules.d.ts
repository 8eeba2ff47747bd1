declare module 'virtual:agreement-templates/*' {
  import type { AgreementContext } from '../src/agreement-context.ts'
  export const TEMPLATE_VERSION: string
  export const templates: Record<string, (context: AgreementContext) => string>
}

declare module 'virtual:agreement-variants' {
  /** agreements/<name>.hbs files that are blank in every language: the app shows no agreement. */
  export const BLANK_VARIANTS: string[]
}
