/**
 * The CLI as a user runs it: `node packages/cli/dist/cli/bin.js …` in a child process (the same entry
 * `npx llamon` uses), against the real Postgres.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureWorkerRole,
  newRoleCredentials,
  workerNeonDsn,
} from "../../packages/cli/src/dev/worker-role.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { atHost, createWorkerRole } from "../helpers/backend.ts";
import { startLlamon } from "../helpers/cli.ts";
import {
  createTestDatabase,
  dsnForDatabase,
  SERVER_DSN,
  type TestDatabase,
} from "../helpers/pg.ts";
import { freePort } from "../helpers/ports.ts";

const _BIN = resolve(import.meta.dirname, "../../packages/cli/dist/cli/bin.js");

function run(args: string[], env: Record<string, string> = {}) {
  const running = startLlamon(args, { env });
  return { child: running.child, done: running.done, output: running.stdout };
}

async function waitFor(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = once(child, "exit");
  child.kill("SIGINT");
  const [code] = await exited;
  return code as number | null;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("llamon_cli");
});
afterAll(async () => {
  await db.drop();
});

describe("llamon CLI", () => {
  it("prints help with examples for every command, exit 0", async () => {
    for (const args of [
      ["--help"],
      ["migrate", "--help"],
      ["run", "--help"],
      ["dev", "proxy", "--help"],
    ]) {
      const { code, stdout } = await run(args).done;
      expect(code, args.join(" ")).toBe(0);
      expect(stdout).toContain("Usage: llamon");
    }
    expect((await run(["dev", "proxy", "--help"]).done).stdout).toContain("Example");
  });

  it("migrate applies the migrations once, then reports the database up to date", async () => {
    const first = await run(["migrate", "--dsn", db.dsn]).done;
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migration\(s\)/);
    const second = await run(["migrate", "--dsn", db.dsn]).done;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("is up to date");
  });

  it("migrate --create-db creates a missing database (like llamon run); without it, says so", async () => {
    const name = `${db.name}_created`;
    const dsn = dsnForDatabase(name);
    try {
      const missing = await run(["migrate", "--dsn", dsn]).done;
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`database "${name}" does not exist`);
      expect(missing.stderr).toContain("--create-db");
      const created = await run(["migrate", "--dsn", dsn, "--create-db"]).done;
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain(`created database ${name}`);
      expect(created.stdout).toMatch(/applied \d+ migration\(s\)/);
      const again = await run(["migrate", "--dsn", dsn, "--create-db"]).done;
      expect(again.stdout).not.toContain("created database");
      expect(again.stdout).toContain("is up to date");
    } finally {
      const admin = new pg.Client({ connectionString: SERVER_DSN });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("user mistakes exit 1 with a clear message and no stack trace", async () => {
    const cases: [string[], RegExp][] = [
      [["migrate", "--dsn", "postgresql://nobody@localhost:1/none"], /DB_UNAVAILABLE/],
      [["dev", "proxy"], /exactly one of --dsn/],
      [["dev", "proxy", "--dsn", db.dsn, "--port", "http"], /--port must be a whole number/],
      [["run", "/nonexistent-llamon-dir"], /no wrangler\.toml/],
      [["no-such-command"], /unknown command/],
    ];
    for (const [args, pattern] of cases) {
      const { code, stderr } = await run(args, { POSTGRES_MEMORY_DSN: "" }).done;
      expect(code, args.join(" ")).toBe(1);
      expect(stderr, args.join(" ")).toMatch(pattern);
      expect(stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    }
  });

  it("`llamon chat` without a URL talks to http://127.0.0.1:$PORT, like `llamon run`", async () => {
    const { code, stderr } = await run(["chat", "-m", "hi"], { PORT: "9" }).done;
    expect(code).toBe(1);
    expect(stderr).toContain("http://127.0.0.1:9/.well-known/agent-card.json");
    const bad = await run(["chat", "-m", "hi"], { PORT: "eighty" }).done;
    expect(bad.stderr).toContain('PORT must be a whole number from 0 to 65535, got "eighty"');
  });

  it("`dev proxy --dsn` serves queries the Neon driver can use, as the role it names, and stops on Ctrl-C", async () => {
    const role = await createWorkerRole(db.dsn, "server");
    try {
      const proxy = run(["dev", "proxy", "--dsn", db.dsn, "--port", "0"]);
      const [url] = await waitFor(proxy.output, /http:\/\/127\.0\.0\.1:\d+\/sql/);
      const neon = createNeonDb({ connectionString: role.neonDsn, fetchEndpoint: url });
      const { rows } = await neon.query<{ v: string; u: string }>(
        "SELECT $1::text AS v, current_user::text AS u",
        ["안녕"],
      );
      expect(rows).toEqual([{ v: "안녕", u: role.worker.role }]);
      // The superuser without a password (trust locally) is refused, as Neon refuses it.
      const superuser = createNeonDb({
        connectionString: "postgresql://postgres:x@localhost/db",
        fetchEndpoint: url,
      });
      await expect(superuser.query("SELECT 1")).rejects.toThrow(
        "password authentication failed for user 'postgres'",
      );
      expect(await stop(proxy.child)).toBe(0);
    } finally {
      await role.drop().catch(() => {});
    }
  });

  it("pinned ports: a taken --port, --pg-port or --proxy-port is exit 1 before anything starts", async () => {
    const holder: Server = createServer();
    const taken = await freePort();
    await new Promise<void>((r) => holder.listen(taken, "127.0.0.1", () => r()));
    const dir = join(await mkdtemp(join(tmpdir(), "llamon-cli-ports-")), "pgdata");
    try {
      const cases: [string[], string][] = [
        [["dev", "proxy", "--dsn", db.dsn, "--port", String(taken)], "--port"],
        [["dev", "proxy", "--embedded", dir, "--pg-port", String(taken)], "--pg-port"],
        [
          [
            "run",
            ".",
            "--data-dir",
            dir,
            "--port",
            String(await freePort()),
            "--proxy-port",
            String(taken),
          ],
          "--proxy-port",
        ],
        [
          [
            "run",
            ".",
            "--data-dir",
            dir,
            "--port",
            String(await freePort()),
            "--pg-port",
            String(taken),
          ],
          "--pg-port",
        ],
      ];
      for (const [args, flag] of cases) {
        const { code, stderr } = await run(args).done;
        expect(code, args.join(" ")).toBe(1);
        expect(stderr, args.join(" ")).toContain(
          `port ${taken} (${flag}) is already in use on 127.0.0.1`,
        );
        // Nothing started: no embedded Postgres made its data folder.
        expect(existsSync(dir), args.join(" ")).toBe(false);
      }
      const twice = await run([
        "dev",
        "proxy",
        "--embedded",
        dir,
        "--port",
        "4444",
        "--pg-port",
        "4444",
      ]).done;
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain("--port and --pg-port are both 4444");
      const pgPortAlone = await run(["dev", "proxy", "--dsn", db.dsn, "--pg-port", "5433"]).done;
      expect(pgPortAlone.code).toBe(1);
      expect(pgPortAlone.stderr).toContain("use it with --embedded");
    } finally {
      await new Promise<void>((r) => holder.close(() => r()));
      await rm(dirname(dir), { recursive: true, force: true });
    }
  }, 180_000);

  it("`dev proxy --embedded <dir>` serves an embedded Postgres whose data stays in the folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "llamon-cli-pglite-"));
    const worker = newRoleCredentials();
    try {
      for (const round of [1, 2]) {
        const [proxyPort, pgPort] = [await freePort(), await freePort()];
        const proxy = run([
          "dev",
          "proxy",
          "--embedded",
          dir,
          "--port",
          String(proxyPort),
          "--pg-port",
          String(pgPort),
        ]);
        const [url] = await waitFor(proxy.output, /http:\/\/127\.0\.0\.1:\d+\/sql/, 60_000);
        expect(url).toBe(`http://127.0.0.1:${proxyPort}/sql`);
        const [, ownerDsn] = await waitFor(proxy.output, /\(PGlite, as its owner\): (\S+)/);
        expect(ownerDsn).toBe(`postgresql://postgres@localhost:${pgPort}/postgres`);
        const neon = createNeonDb({
          connectionString: atHost(
            workerNeonDsn(ownerDsn as string, worker),
            `embedded${round}.local`,
          ),
          fetchEndpoint: url,
        });
        if (round === 1) {
          // The owner makes the table and the role (through the pinned Postgres port); the
          // role writes through the proxy.
          const owner = new pg.Client({ connectionString: ownerDsn });
          await owner.connect();
          await owner.query("CREATE TABLE kept (v text)");
          await owner.end();
          await ensureWorkerRole(ownerDsn as string, worker);
          await neon.query("INSERT INTO kept VALUES ($1)", ["still here"]);
        } else {
          const { rows } = await neon.query<{ v: string }>("SELECT v FROM kept");
          expect(rows).toEqual([{ v: "still here" }]);
        }
        expect(await stop(proxy.child)).toBe(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
