/** The part of the `stopword` package llamon uses (it ships no types). */
declare module "stopword" {
  /** English stop words, lower case. */
  export const eng: readonly string[];
}
