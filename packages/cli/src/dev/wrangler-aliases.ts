/**
 * The `[alias]` table of a Worker's wrangler.toml as vite aliases, so tests in workerd
 * (`@cloudflare/vitest-plugin`, which bundles with vite, not wrangler) run the same modules
 * as the deployed bundle. Node only (test configs).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { parse } from "smol-toml";

export interface ViteAlias {
  readonly find: RegExp;
  readonly replacement: string;
}

/** wrangler resolves each target with Node's resolution from the config's folder; so does this. */
export function wranglerAliases(configPath: string): ViteAlias[] {
  const file = resolve(configPath);
  const toml = parse(readFileSync(file, "utf8")) as { alias?: Record<string, unknown> };
  const require = createRequire(file);
  return Object.entries(toml.alias ?? {}).map(([from, to]) => ({
    find: new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`),
    replacement: require.resolve(String(to), { paths: [dirname(file)] }),
  }));
}
