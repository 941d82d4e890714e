/**
 * zod's locale index with English only — put in the Worker bundle in place of zod's own
 * `locales/index.js` (all 40 languages, about 0.35 MiB, which esbuild cannot drop because zod
 * re-exports them as one namespace) by wrangler's `[alias]` in wrangler.toml. zod's errors
 * stay in English, its default; `z.locales.en()` still works, other languages are absent.
 * Worker bundles only; never imported by llamon's own code.
 */
export { default as en } from "zod/v4/locales/en.js";
