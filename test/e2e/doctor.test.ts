/**
 * `llamon doctor` as a user runs it, on a scaffolded postgres project whose DSN
 * points at the local Postgres: the missing database is found (with the command that fixes
 * it), then after `llamon migrate --create-db` the project is ready (exit 0); a broken
 * binding and a bad memory setting in code are reported (exit 1, also as --json).
 */
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DoctorReport } from "../../packages/cli/src/cli/doctor/report.ts";
import { llamon, REPO } from "../helpers/llamon-run.ts";
import { dsnForDatabase, SERVER_DSN } from "../helpers/pg.ts";

const NAME = `doc-${process.pid}`;
const DATABASE = `${NAME.replaceAll("-", "_")}_memory`;
let root: string;
let dir: string;

async function cli(args: string[], cwd = dir) {
  const child = llamon(args, cwd, { POSTGRES_MEMORY_DSN: "" });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const [code] = await once(child, "exit");
  return { code: code as number, stdout, stderr };
}

async function dropDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_DSN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-doctor-"));
  const modules = join(root, "node_modules");
  await mkdir(modules);
  for (const entry of await readdir(join(REPO, "node_modules"))) {
    if (entry === ".bin" || entry === "llamon") continue;
    await symlink(join(REPO, "node_modules", entry), join(modules, entry));
  }
  await symlink(REPO, join(modules, "llamon"));
  const made = await cli(
    [
      "agent",
      NAME,
      "--template",
      "agent-general",
      "--memory",
      "postgres",
      "--yes",
      "--no-install",
    ].concat(["--llamon", `file:${REPO}`]),
    root,
  );
  expect(made.code, made.stderr).toBe(0);
  dir = join(root, NAME);
  // The scaffold's DSN names localhost:5432; point it at the test server.
  const devVars = (await readFile(join(dir, ".dev.vars"), "utf8")).replace(
    /^POSTGRES_MEMORY_DSN=.*$/m,
    `POSTGRES_MEMORY_DSN=${dsnForDatabase(DATABASE)}`,
  );
  await writeFile(join(dir, ".dev.vars"), devVars);
});
afterAll(async () => {
  await dropDatabase();
  await rm(root, { recursive: true, force: true });
});

describe("llamon doctor", () => {
  it("finds the missing database and names the fix; after migrate --create-db the project is ready", async () => {
    const before = await cli(["doctor"]);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`✗ database: the server has no database "${DATABASE}"`);
    expect(before.stdout).toContain("fix: npx llamon migrate --create-db");
    expect(before.stdout).toContain("✓ THREADS: Durable Object THREADS → ThreadDO");
    expect(before.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);

    const migrated = await cli(["migrate", "--create-db"]);
    expect(migrated.code, migrated.stderr).toBe(0);

    const after = await cli(["doctor", "--json"]);
    expect(after.code, after.stdout).toBe(0);
    const report = JSON.parse(after.stdout) as DoctorReport;
    expect(report).toMatchObject({ ok: true, problems: 0 });
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName.migrations?.status).toBe("ok");
    expect(byName.tables?.message).toContain(`agent ${NAME} has 0 conversation(s)`);
    expect(byName.memory?.message).toBe("memory postgres, window 20");
  });

  it("a missing binding and a bad memory setting in code are problems, exit 1", async () => {
    const toml = await readFile(join(dir, "wrangler.toml"), "utf8");
    const agent = await readFile(join(dir, "src/agent.ts"), "utf8");
    try {
      await writeFile(
        join(dir, "wrangler.toml"),
        toml.replace(
          /\[\[durable_objects\.bindings\]\]\nname = "THREADS"\nclass_name = "ThreadDO"\n/,
          "",
        ),
      );
      await writeFile(
        join(dir, "src/agent.ts"),
        agent.replace("window_size: 20", "window_size: 0"),
      );
      const { code, stdout } = await cli(["doctor", "--json"]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as DoctorReport;
      const problems = report.checks.filter((c) => c.status === "problem");
      expect(problems.map((c) => c.name).sort()).toEqual(["THREADS", "agent code"].sort());
      expect(problems.find((c) => c.name === "agent code")?.message).toContain(
        "window_size: must be a whole number >= 1 and <= 1000, got 0",
      );
      expect(problems.find((c) => c.name === "THREADS")?.fix).toContain(
        "[[durable_objects.bindings]]",
      );
    } finally {
      await writeFile(join(dir, "wrangler.toml"), toml);
      await writeFile(join(dir, "src/agent.ts"), agent);
    }
  });
});
