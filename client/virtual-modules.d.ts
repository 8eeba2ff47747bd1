declare module 'virtual:agreement-templates/*' {
  import type { AgreementContext } from '../src/agreement-context.ts'
  export const TEMPLATE_VERSION: string
  export const templates: Record<string, (context: AgreementContext) => string>
}
