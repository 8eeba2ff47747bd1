/**
 * What RJSF's utils get for `fast-uri` (see vite.config.ts). RJSF resolves URIs only for a draft
 * 2020-12 schema (`$schema` of 2020-12: its `$id`s and non-local `$ref`s); the server compiles every
 * form's schema with a draft-07 Ajv at start-up, which refuses a 2020-12 one, so no page ever reaches
 * these, and a claimant's phone is spared the full URI parser. Reached anyway, they say why.
 */
function unsupported(): never {
  throw new Error(
    'draft 2020-12 schemas are not supported in the browser: vite.config.ts stands in for fast-uri',
  )
}

export const equal = unsupported
export const resolve = unsupported

export default { equal, resolve }
