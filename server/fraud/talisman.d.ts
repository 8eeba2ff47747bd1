// talisman ships no types; these are the two functions the fraud tests use
declare module 'talisman/phonetics/double-metaphone.js' {
  /** The primary and secondary Double Metaphone codes of a word. */
  export default function doubleMetaphone(word: string): [string, string]
}
declare module 'talisman/metrics/jaro-winkler.js' {
  /** Jaro-Winkler similarity of two strings, 0 (nothing alike) to 1 (the same). */
  export default function jaroWinkler(a: string, b: string): number
}
