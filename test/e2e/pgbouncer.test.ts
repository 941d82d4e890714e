/**
 * R10.1 through PgBouncer in TRANSACTION mode (Debian package `pgbouncer`, started here in
 * front of the local Postgres on a free port): every Node-side tool keeps no session state —
 * `llamon migrate` twice at once (transaction-scoped advisory lock), `llamon memory prune`
 * (unnamed statements with MEMORY_PG_STATEMENT_CACHE_SIZE=0), and turns through the
 * Neon-protocol dev proxy (NeonSaver, compare-and-set batches, offline model) all work.
 *
 * Installs pgbouncer with apt-get when it is missing and this runs as root; otherwise the
 * file is skipped with a message saying so.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NeonProxy, startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createWorkerRole } from "../helpers/backend.ts";
import { runLlamon } from "../helpers/cli.ts";
import { createTestDatabase, SERVER_DSN, type TestDatabase } from "../helpers/pg.ts";
import { freePort } from "../helpers/ports.ts";

const _BIN = resolve(import.meta.dirname, "../../packages/cli/dist/cli/bin.js");

function findPgbouncer(): string | undefined {
  for (const path of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"]) {
    if (existsSync(path)) return path;
  }
  const which = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** pgbouncer's path, installing the Debian package when possible; or why there is none. */
function ensurePgbouncer(): { path?: string; why?: string } {
  const found = findPgbouncer();
  if (found) return { path: found };
  if (process.getuid?.() !== 0)
    return { why: "pgbouncer is not installed (apt-get install pgbouncer)" };
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let install = spawnSync("apt-get", ["install", "-y", "-q", "pgbouncer"], {
    env,
    encoding: "utf8",
  });
  if (install.status !== 0) {
    spawnSync("apt-get", ["update", "-q"], { env });
    install = spawnSync("apt-get", ["install", "-y", "-q", "pgbouncer"], { env, encoding: "utf8" });
  }
  const path = findPgbouncer();
  return path
    ? { path }
    : { why: `apt-get install pgbouncer failed: ${install.stderr?.slice(-300)}` };
}

function cli(args: string[], env: Record<string, string> = {}) {
  return runLlamon(args, { env });
}

const bouncer = ensurePgbouncer();
if (!bouncer.path) console.warn(`skipped pgbouncer tests: ${bouncer.why}`);

let dir: string;
let child: ChildProcess | undefined;
let database: TestDatabase;
let bouncerDsn: string;
/** The Worker's role: the proxy connects as it, through PgBouncer (so in its userlist). */
let worker: Awaited<ReturnType<typeof createWorkerRole>>;
let log = "";

beforeAll(async () => {
  if (!bouncer.path) return;
  database = await createTestDatabase("llamon_pgbouncer");
  // Before the migrations: the owner's default privileges grant it the tables they make.
  worker = await createWorkerRole(database.dsn, "server");
  dir = await mkdtemp(join(tmpdir(), "llamon-pgbouncer-"));
  await chmod(dir, 0o755); // pgbouncer drops root for the postgres user, which must read these
  const port = await freePort();
  const upstream = new URL(SERVER_DSN);
  const user = decodeURIComponent(upstream.username || "postgres");
  await writeFile(join(dir, "userlist.txt"), `"${user}" ""\n"${worker.worker.role}" ""\n`, {
    mode: 0o644,
  });
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${upstream.hostname === "localhost" ? "127.0.0.1" : upstream.hostname} port=${upstream.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 200",
      "default_pool_size = 10",
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const asUser = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
  child = spawn(bouncer.path, [...asUser, join(dir, "pgbouncer.ini")], { stdio: "pipe" });
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  const url = new URL(database.dsn);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  bouncerDsn = url.toString();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: bouncerDsn });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`pgbouncer did not start: ${String(error)}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGINT");
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  await database?.drop();
  await worker?.drop();
});

describe.skipIf(!bouncer.path)("through PgBouncer in transaction mode", () => {
  it("R10.1 two `llamon migrate` at once both succeed (transaction-scoped advisory lock)", async () => {
    const [a, b] = await Promise.all([
      cli(["migrate", "--dsn", bouncerDsn]),
      cli(["migrate", "--dsn", bouncerDsn]),
    ]);
    expect(a.code, a.stderr + log).toBe(0);
    expect(b.code, b.stderr + log).toBe(0);
    expect([a.stdout, b.stdout].filter((o) => /applied \d+ migration\(s\)/.test(o))).toHaveLength(
      1,
    );
    expect([a.stdout, b.stdout].filter((o) => o.includes("is up to date"))).toHaveLength(1);
  });

  it("R10.1 R2.4 turns through the Neon-protocol proxy (pool of 5) → PgBouncer: remembered, concurrent sends all kept", async () => {
    let proxy: NeonProxy | undefined;
    try {
      proxy = await startNeonProxy({ upstreamDsn: bouncerDsn, poolSize: 5 });
      const db = createNeonDb({
        connectionString: worker.neonDsn,
        fetchEndpoint: proxy.url,
      });
      const agent = defineAgent({ name: "bouncer", description: "", system: "Be brief." });
      const turn = (threadId: string, text: string) =>
        runTurn(
          {
            agent,
            config: resolveMemoryConfig({}).config,
            model: new OfflineChatModel(),
            checkpointer: new NeonSaver({ db, agentId: "bouncer", guardHead: true }),
            log: createMemoryLogger(),
          },
          { threadId, text },
        );
      await turn("t1", "my name is Mina");
      const second = await turn("t1", "what is my name?");
      expect(second.reply).toContain("has_prior=true");
      expect(second.reply).toContain("previous user message: my name is Mina");

      await Promise.all(["a", "b", "c", "d"].map((t) => turn("t2", `message ${t}`)));
      const saver = new NeonSaver({ db, agentId: "bouncer" });
      const { messages } = await readThreadMessages(saver, { configurable: { thread_id: "t2" } });
      const texts = messages.map((m) => String(m.content));
      for (const t of ["a", "b", "c", "d"]) expect(texts).toContain(`message ${t}`);
      expect(texts).toHaveLength(8);
    } finally {
      await proxy?.close();
    }
  });

  it("R10.1 R4.3 `llamon memory prune` lists and deletes through PgBouncer (no named statements)", async () => {
    const env = { MEMORY_PG_STATEMENT_CACHE_SIZE: "0", AGENT_ID: "", POSTGRES_MEMORY_DSN: "" };
    const args = ["memory", "prune", "--dsn", bouncerDsn, "--agent-id", "bouncer", "--all"];
    const dry = await cli([...args, "--json"], env);
    expect(dry.code, dry.stderr + log).toBe(0);
    const plan = JSON.parse(dry.stdout) as { threads: { thread_id: string }[] };
    expect(plan.threads.map((t) => t.thread_id).sort()).toEqual(["t1", "t2"]);
    const applied = await cli([...args, "--apply", "--batch-size", "1"], env);
    expect(applied.code, applied.stderr + log).toBe(0);
    expect(applied.stdout).toMatch(/deleted 2 thread\(s\) of agent bouncer/);
    const again = await cli([...args, "--json"], env);
    expect((JSON.parse(again.stdout) as { threads: unknown[] }).threads).toEqual([]);
  });
});
