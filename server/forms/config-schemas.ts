import { Ajv, type ValidateFunction } from 'ajv'

/**
 * The ways start-up compiles a config's JSON Schemas with ajv: `meta` checks a form config against its
 * schema (forms/form-config.schema.json, intake-config.schema.json) with strict mode off; `settings`
 * checks the filing settings and provider profiles with ajv's defaults; `form` compiles a form's own
 * schema in strict mode, so a typo such as "maxLenght" stops the server (the client's `errorMessage`
 * keyword allowed).
 */
export type SchemaUse = 'meta' | 'settings' | 'form'

/**
 * Each schema compiled once a process for each use, found again by its JSON text. A compile is a
 * thousandth to a twentieth of a second and its validator never changes, while one process reads the
 * same forms/ many times: the tests start a server in-process for each test file, the config check reads
 * every app. A schema that fails to compile is not kept, so its error is thrown again at each read.
 */
const compiled = new Map<string, ValidateFunction>()

export function compileConfigSchema(use: SchemaUse, schema: unknown): ValidateFunction {
  const key = `${use}:${JSON.stringify(schema)}`
  let validate = compiled.get(key)
  if (!validate) {
    validate = newAjv(use).compile(schema as object)
    compiled.set(key, validate)
  }
  return validate
}

function newAjv(use: SchemaUse): Ajv {
  if (use === 'meta') return new Ajv({ allErrors: true, strict: false })
  if (use === 'settings') return new Ajv({ allErrors: true })
  const ajv = new Ajv({ allErrors: true, strict: true })
  ajv.addKeyword('errorMessage')
  return ajv
}
