import type realMerge from '@rjsf/utils/lib/schema/shallowAllOfMerge.js'

type Merge = typeof realMerge

let merge: Merge | undefined
let loading: Promise<void> | undefined

/**
 * Whether RJSF merges an allOf to draw `schema`: it has one, or patternProperties (whose matches RJSF
 * merges as one). Our forms have neither today; a form that has one waits for loadAllOfMerge().
 */
export function needsAllOfMerge(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(needsAllOfMerge)
  if (typeof schema !== 'object' || schema === null) return false
  return Object.entries(schema).some(
    ([key, value]) => key === 'allOf' || key === 'patternProperties' || needsAllOfMerge(value),
  )
}

/** RJSF's allOf merge (json-schema-merge, a twentieth of a form page's code), fetched once. */
export function loadAllOfMerge(): Promise<void> {
  loading ??= import('@rjsf/utils/lib/schema/shallowAllOfMerge.js').then((module) => {
    merge = module.default
  })
  // a failed download is not kept: the next form that mounts tries again
  loading.catch(() => (loading = undefined))
  return loading
}

/**
 * What RJSF's retrieveSchema and omitExtraData get for their allOf merge (see vite.config.ts): the same
 * merge, once loadAllOfMerge() has fetched it, which the forms wait for when their schema needs it.
 */
export default function shallowAllOfMerge(schema: Parameters<Merge>[0]): ReturnType<Merge> {
  if (!merge) throw new Error('an allOf was merged before loadAllOfMerge() had fetched the merge')
  return merge(schema)
}
