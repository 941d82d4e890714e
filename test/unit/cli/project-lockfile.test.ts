/**
 * The scaffold's package-lock.json (packages/cli/src/cli/scaffold/lockfile.ts), cut from the
 * workspace's: llamon is a production dependency of the project and llamon-cli a dev one, so
 * what only the command line needs is marked dev and `npm ci --omit=dev` leaves it out, while
 * what the Worker needs stays, even when the CLI needs it too.
 */
import { describe, expect, it } from "vitest";
import {
  type LlamonLock,
  type Lockfile,
  projectLockfile,
} from "../../../packages/cli/src/cli/scaffold/lockfile.ts";

const entry = (version: string, dependencies?: Record<string, string>) => ({
  version,
  resolved: `https://registry.npmjs.org/x/-/x-${version}.tgz`,
  integrity: "sha512-x",
  ...(dependencies ? { dependencies } : {}),
});

/** A workspace lockfile: llamon at the root, llamon-cli in packages/cli, both linked. */
const workspace: Lockfile = {
  lockfileVersion: 3,
  packages: {
    "": { name: "llamon", version: "0.1.0", workspaces: ["packages/cli"] },
    "node_modules/llamon": { resolved: "", link: true },
    "node_modules/llamon-cli": { resolved: "packages/cli", link: true },
    "packages/cli": { name: "llamon-cli", version: "0.1.0" },
    "node_modules/hono": entry("4.0.0"),
    "node_modules/zod": entry("4.0.0"),
    "node_modules/shared-helper": entry("1.0.0"),
    "node_modules/@langchain/core": entry("1.0.0", { "shared-helper": "^1.0.0" }),
    "node_modules/commander": entry("14.0.0"),
    "node_modules/@electric-sql/pglite": { ...entry("0.5.0"), dev: true },
    "node_modules/pg": entry("8.0.0", { "pg-pool": "^3.0.0", "shared-helper": "^1.0.0" }),
    "node_modules/pg-pool": entry("3.0.0"),
    "node_modules/wrangler": { ...entry("4.0.0"), dev: true },
    "node_modules/@biomejs/biome": { ...entry("2.0.0"), dev: true },
  },
};

const llamon: LlamonLock = {
  spec: "file:vendor/llamon-0.1.0.tgz",
  integrity: "sha512-llamon",
  version: "0.1.0",
  dependencies: { hono: "^4", zod: "^4", "@langchain/core": "^1" },
  bin: {},
};
const cli: LlamonLock = {
  spec: "file:vendor/llamon-cli-0.1.0.tgz",
  integrity: "sha512-cli",
  version: "0.1.0",
  dependencies: {
    llamon: "0.1.0",
    commander: "^14",
    "@electric-sql/pglite": "0.5.0",
    pg: "^8",
    zod: "^4",
  },
  bin: { llamon: "dist/cli/bin.js" },
};

describe("a scaffold's lockfile", () => {
  const lock = projectLockfile(
    workspace,
    {
      name: "my-agent",
      version: "0.1.0",
      dependencies: { llamon: llamon.spec },
      devDependencies: { "llamon-cli": cli.spec, wrangler: "^4" },
    },
    llamon,
    cli,
  );
  const flags = (path: string) => lock.packages[path]?.dev;

  it("R9.2 holds both vendored packages: llamon for production, llamon-cli (with the bin) for dev", () => {
    expect(lock.packages["node_modules/llamon"]).toMatchObject({
      resolved: llamon.spec,
      integrity: llamon.integrity,
    });
    expect(lock.packages["node_modules/llamon"]?.bin).toBeUndefined();
    expect(flags("node_modules/llamon")).toBeUndefined();
    expect(lock.packages["node_modules/llamon-cli"]).toMatchObject({
      resolved: cli.spec,
      integrity: cli.integrity,
      bin: { llamon: "dist/cli/bin.js" },
      dev: true,
    });
  });

  it("R9.2 marks dev what only the command line or a devDependency needs, and nothing the Worker needs", () => {
    for (const path of [
      "node_modules/commander",
      "node_modules/@electric-sql/pglite",
      "node_modules/pg",
      "node_modules/pg-pool",
      "node_modules/wrangler",
    ]) {
      expect(flags(path), path).toBe(true);
    }
    // zod is a dependency of both; shared-helper is reached through the CLI's pg and through
    // llamon's @langchain/core: the production side wins.
    for (const path of [
      "node_modules/hono",
      "node_modules/zod",
      "node_modules/@langchain/core",
      "node_modules/shared-helper",
    ]) {
      expect(flags(path), path).toBeUndefined();
    }
    // Nothing of the workspace that the project does not reach.
    expect(lock.packages["node_modules/@biomejs/biome"]).toBeUndefined();
    expect(lock.packages["packages/cli"]).toBeUndefined();
  });
});
