/**
 * issue 17: llamon's runtime `dependencies` are what a Worker runs; the command line's tools
 * are `cliDependencies` — installed in the checkout as devDependencies (same ranges) and added
 * to every scaffolded project's devDependencies — never runtime dependencies.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  cliDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

describe("llamon's package.json", () => {
  it("issue 17: the CLI's tools are dev dependencies with the same ranges, not runtime ones", () => {
    const tools = Object.keys(pkg.cliDependencies);
    expect(tools.sort()).toEqual(
      [
        "@electric-sql/pglite",
        "@electric-sql/pglite-pgvector",
        "@electric-sql/pglite-socket",
        "commander",
        "pg",
        "smol-toml",
        "tsx",
      ].sort(),
    );
    for (const tool of tools) {
      expect(pkg.devDependencies[tool], tool).toBe(pkg.cliDependencies[tool]);
      expect(pkg.dependencies[tool], tool).toBeUndefined();
    }
    // A peer (even optional) of a production package stays in `npm ci --omit=dev`.
    expect(pkg.peerDependencies).toBeUndefined();
  });
});
