/**
 * `prepare-offline --clean` where the npm registry cannot be reached (nothing listens at the
 * configured registry): it fails at once with NETWORK_UNAVAILABLE, before any download is
 * tried (npm's own retries of a refused registry go on for minutes), leaves the earlier bundle
 * as it was, and
 * the npm log it points to is still there (it was written inside the staging folder, which the
 * failure deletes).
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
// Port 9 (discard) on this machine: nothing listens, so every connection is refused.
const NO_REGISTRY = { npm_config_registry: "http://127.0.0.1:9/", npm_config_offline: "false" };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "llamon-offline-network-"));
  for (const [k, v] of Object.entries(NO_REGISTRY)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const dependencies = { "left-pad": "1.3.0" };
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "p", version: "1.0.0", dependencies }),
  );
  await writeFile(
    join(dir, "package-lock.json"),
    JSON.stringify({
      name: "p",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "p", version: "1.0.0", dependencies },
        "node_modules/left-pad": {
          version: "1.3.0",
          resolved: "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
          integrity:
            "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQEVB3VwsI7Hd+3ufrcTr1s6Ei7ZJ1B9ypijFJSxOQ4u4VYyA==",
        },
      },
    }),
  );
  await mkdir(join(dir, "offline", "npm-cache"), { recursive: true });
  await writeFile(join(dir, "offline", "README.txt"), "the earlier bundle");
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await rm(dir, { recursive: true, force: true });
});

describe("prepare-offline where the registry cannot be reached", () => {
  it("R9.4 fails fast with NETWORK_UNAVAILABLE, keeps the bundle, and points to a log that exists", async () => {
    const lines: string[] = [];
    const error = await buildOfflineBundle({
      projectDir: dir,
      outDir: join(dir, "offline"),
      clean: true,
      allPlatforms: false,
      log: (line) => lines.push(line),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLlamonError(error, "NETWORK_UNAVAILABLE"), String(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("http://127.0.0.1:9/");
    expect(message).toContain("run prepare-offline where the npm registry is reachable");
    expect(message).toContain(`The existing bundle in ${join(dir, "offline")} was left as it was`);
    const log = /A complete log of this run can be found in: (\S+)/.exec(message)?.[1];
    expect(log, message).toBeDefined();
    expect(existsSync(log as string), `${log} exists`).toBe(true);
    expect(log).not.toContain(join(dir, "offline"));
    expect(await readFile(join(dir, "offline", "README.txt"), "utf8")).toBe("the earlier bundle");
    expect((await readdir(dir)).sort()).toEqual(["offline", "package-lock.json", "package.json"]);
    // Bounded by the test's timeout: npm's retries of a refused registry would outlast it.
  }, 30_000);
});
