/**
 * llamon-cli (packages/cli) imports llamon through its package exports. In this checkout's
 * tests those entries resolve to llamon's sources, as tsconfig.json's `paths` do for the
 * typecheck: the tests need no build of dist/ first, and a test that imports src/errors.ts
 * sees the same LlamonError class as the CLI module it tests.
 */
import { fileURLToPath } from "node:url";

const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

export const llamonSourceAliases = [
  { find: /^llamon\/node$/, replacement: source("node.ts") },
  { find: /^llamon\/errors$/, replacement: source("errors.ts") },
];
