/**
 * A new, empty embedded PGlite data folder for a test, copied from a template made once per
 * machine and PGlite version: creating a cluster (initdb, in WASM) costs several times what a
 * copy does, and the embedded test pass creates a few dozen (one per integration file, one per
 * migrate test). The copy is the same empty cluster a first start would make; the test then
 * starts it with `startEmbeddedPostgres`.
 *
 * The template lives in the OS temp folder under a name made of the PGlite version and this
 * file's recipe version, so a PGlite upgrade makes a new one. It is built in a folder of its
 * own and renamed into place, so test processes that build it at the same time never see half
 * of one (the first rename wins; the others use it and delete theirs).
 */

import { cp, mkdtemp, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmbeddedPostgres } from "../../packages/cli/src/dev/embedded-postgres.ts";

/** Bump when what a template holds changes (it holds an empty cluster, nothing else). */
const RECIPE = 1;

/** The installed PGlite's version (its package.json does not export itself). */
async function pgliteVersion(): Promise<string> {
  const path = resolve(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json");
  return (JSON.parse(await readFile(path, "utf8")) as { version: string }).version;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function template(): Promise<string> {
  const path = join(tmpdir(), `llamon-pglite-template-${await pgliteVersion()}-r${RECIPE}`);
  if (await exists(join(path, "PG_VERSION"))) return path;
  const building = await mkdtemp(join(tmpdir(), "llamon-pglite-template-building-"));
  const cluster = join(building, "data");
  const db = await startEmbeddedPostgres({ dataDir: cluster });
  await db.close();
  try {
    // A folder left there half made (a process killed while copying) is not a template.
    if ((await exists(path)) && !(await exists(join(path, "PG_VERSION")))) {
      await rm(path, { recursive: true, force: true });
    }
    await rename(cluster, path);
  } catch (error) {
    // Another test process put its template there first: use that one.
    if (!(await exists(join(path, "PG_VERSION")))) throw error;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return path;
}

/** A new folder (named after `prefix`) holding an empty PGlite cluster, for this test alone. */
export async function freshEmbeddedDataDir(prefix: string): Promise<string> {
  const source = await template();
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  await cp(source, dir, { recursive: true });
  return dir;
}
