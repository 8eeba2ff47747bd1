import { CompiledQuery, type Compilable, type QueryResult } from 'kysely'

/** Runs a compiled query: a Kysely instance or one of its transactions. */
export interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>
}

const SLOT = '\u0000slot:'

/**
 * A query kysely builds and compiles once, then runs with each call's values. Under a stream of
 * claims, building a query (immutable nodes, each frozen, then compiled to SQL) cost the event loop
 * more than SQLite took to run it. `build` gets `slot(name)`, a stand-in for the value `name` will
 * have on each run; any other value in it stays as built. Compile it with the database it will run
 * on (its dialect decides the SQL); run it on that database or on one of its transactions.
 * @example const byPhone = compileOnce((slot) => db.selectFrom('claims').select('id').where('phone_number', '=', slot('phone')))
 *          await byPhone(trx, { phone: '(555) 123-4567' })
 */
export function compileOnce<Name extends string, Row>(
  build: (slot: (name: Name) => never) => Compilable<Row>,
): (runner: QueryRunner, values: Record<Name, unknown>) => Promise<QueryResult<Row>> {
  const compiled = build((name) => `${SLOT}${name}` as never).compile()
  // each parameter: the name of the slot it stands for, or undefined for a value fixed at build time
  const names = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(SLOT) ? (value.slice(SLOT.length) as Name) : undefined,
  )
  return (runner, values) =>
    runner.executeQuery(
      CompiledQuery.raw(
        compiled.sql,
        names.map((name, i) => (name === undefined ? compiled.parameters[i] : values[name])),
      ) as CompiledQuery<Row>,
    )
}
