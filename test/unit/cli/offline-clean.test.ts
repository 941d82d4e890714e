/**
 * `prepare-offline --clean` run where there is no registry (the offline machine itself)
 * fails with the bundle untouched: wiping it first would lose the only copy of the
 * dependencies there.
 * npm runs for real, with --offline and a closed registry port, so it cannot fetch anything.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOfflineBundle } from "../../../packages/cli/src/cli/offline.ts";
import { isLlamonError } from "../../../src/errors.ts";

let dir: string;
const saved: Record<string, string | undefined> = {};
const OFFLINE_ENV = { npm_config_offline: "true", npm_config_registry: "http://127.0.0.1:9/" };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "llamon-offline-clean-"));
  for (const [k, v] of Object.entries(OFFLINE_ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "p", version: "1.0.0", dependencies: { "left-pad": "1.3.0" } }),
  );
  await writeFile(
    join(dir, "package-lock.json"),
    JSON.stringify({
      name: "p",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "p", version: "1.0.0", dependencies: { "left-pad": "1.3.0" } },
        "node_modules/left-pad": {
          version: "1.3.0",
          resolved: "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
          integrity:
            "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQEVB3VwsI7Hd+3ufrcTr1s6Ei7ZJ1B9ypijFJSxOQ4u4VYyA==",
        },
      },
    }),
  );
  // The bundle an earlier run made where the registry was reachable.
  await mkdir(join(dir, "offline", "npm-cache", "_cacache"), { recursive: true });
  await writeFile(join(dir, "offline", "npm-cache", "_cacache", "entry"), "cached tarball");
  await writeFile(join(dir, "offline", "README.txt"), "the earlier bundle");
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await rm(dir, { recursive: true, force: true });
});

describe("prepare-offline --clean without a registry", () => {
  it("fails with a clear error and leaves the existing bundle as it was", async () => {
    const error = await buildOfflineBundle({
      projectDir: dir,
      outDir: join(dir, "offline"),
      clean: true,
      allPlatforms: false,
      log: () => {},
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLlamonError(error), String(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("run prepare-offline where the npm registry is reachable");
    expect(message).toContain(`The existing bundle in ${join(dir, "offline")} was left as it was`);
    expect(await readFile(join(dir, "offline", "npm-cache", "_cacache", "entry"), "utf8")).toBe(
      "cached tarball",
    );
    expect(await readFile(join(dir, "offline", "README.txt"), "utf8")).toBe("the earlier bundle");
    // No staging folder is left behind.
    expect((await readdir(dir)).sort()).toEqual(["offline", "package-lock.json", "package.json"]);
    expect(existsSync(join(dir, "offline", "packages.txt"))).toBe(false);
  }, 60_000);
});
