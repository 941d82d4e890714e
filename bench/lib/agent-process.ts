/**
 * The reference agent as users run it — `node packages/cli/dist/cli/bin.js run .` (wrangler dev, the
 * Neon-protocol proxy, Postgres) — started for the load bench and the load test.
 *
 * Database: the real server when it is reachable (a fresh database, dropped at stop), else the
 * embedded PGlite in a temporary folder (`--embedded --data-dir`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { projectRoleCredentials } from "../../packages/cli/src/cli/worker-role.ts";
import { workerNeonDsn } from "../../packages/cli/src/dev/worker-role.ts";
import { createTestDatabase, SERVER_DSN } from "../../test/helpers/pg.ts";
import { freePort } from "../../test/helpers/ports.ts";

export { freePort };

const ROOT = resolve(import.meta.dirname, "../..");

export interface RunningAgent {
  readonly url: string;
  readonly database: "server" | "embedded";
  /** node-postgres DSN of the agent's database (server), or undefined (embedded). */
  readonly dsn: string | undefined;
  /** The agent's Neon-protocol proxy (what its Worker talks to), e.g. http://127.0.0.1:5555/sql. */
  readonly proxyUrl: string;
  /** The Worker's connection string (its role, from the project's .llamon/worker-role.json). */
  readonly neonDsn: string;
  /** The last lines the agent printed. */
  output(): string;
  stop(): Promise<void>;
}

async function serverReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_DSN, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startReferenceAgent(
  options: { readyTimeoutMs?: number } = {},
): Promise<RunningAgent> {
  const port = await freePort();
  const cleanups: (() => Promise<void>)[] = [];
  const args = ["packages/cli/dist/cli/bin.js", "run", ".", "--port", String(port)];
  // Its own wrangler state: a test or bench running beside it must not share the Durable
  // Objects' SQLite files (SQLITE_BUSY).
  const stateDir = await mkdtemp(join(tmpdir(), "llamon-load-state-"));
  cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
  args.push("--state-dir", stateDir);
  let dsn: string | undefined;
  let database: RunningAgent["database"];
  if (await serverReachable()) {
    const db = await createTestDatabase("llamon_load");
    cleanups.push(() => db.drop());
    dsn = db.dsn;
    database = "server";
  } else {
    const dir = await mkdtemp(join(tmpdir(), "llamon-load-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    args.push("--embedded", "--data-dir", join(dir, "pgdata"));
    database = "embedded";
  }
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, POSTGRES_MEMORY_DSN: dsn ?? "" },
  });
  // Keep the tail only: every turn logs its `multiturn:` line.
  let out = "";
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
  while (!out.includes("is running at")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`llamon run did not get ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const proxyUrl = /Neon-protocol proxy: (http:\/\/\S+)/.exec(out)?.[1];
  if (proxyUrl === undefined) {
    await stop();
    throw new Error(`llamon run did not print its Neon-protocol proxy:\n${out}`);
  }
  const neonDsn = workerNeonDsn(
    "postgresql://localhost/llamon",
    await projectRoleCredentials(ROOT),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    dsn,
    proxyUrl,
    neonDsn,
    output: () => out,
    stop,
  };
}
