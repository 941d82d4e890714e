import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { threadKey } from "../../src/runtime/thread-keys.ts";
import type { Db } from "../../src/store/db.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { runLlamon } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";

const _BIN = resolve(import.meta.dirname, "../../packages/cli/dist/cli/bin.js");

function run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const env = { POSTGRES_MEMORY_DSN: "", AGENT_ID: "", ...options.env };
  return runLlamon(args, { cwd: options.cwd, env });
}

let database: TestDatabase;
let db: Db;
let project: string;

beforeAll(async () => {
  database = await createTestDatabase("llamon_prune_cli");
  await migrate({ connectionString: database.dsn });
  db = createPgDb({ connectionString: database.dsn });
  project = await mkdtemp(join(tmpdir(), "llamon-prune-project-"));
  await writeFile(
    join(project, ".dev.vars"),
    `AGENT_ID=shop\nPOSTGRES_MEMORY_DSN=${database.dsn}\nMEMORY_PG_STATEMENT_CACHE_SIZE=0\n`,
  );
});

afterAll(async () => {
  await db.close();
  await database.drop();
  await rm(project, { recursive: true, force: true });
});

const agent = defineAgent({ name: "shop", description: "", system: "Be brief." });

async function thread(agentId: string, threadId: string, daysAgo: number): Promise<void> {
  for (const text of ["hello", "what did I say?"]) {
    await runTurn(
      {
        agent,
        config: resolveMemoryConfig({}).config,
        model: new OfflineChatModel(),
        checkpointer: new NeonSaver({ db, agentId, guardHead: true }),
        log: createMemoryLogger(),
      },
      { threadId, text },
    );
  }
  await createPostgresMemory(db, agentId).set(threadId, "summary", { text: "earlier talk" });
  await db.query(
    "UPDATE llamon_threads SET last_activity_at = now() - make_interval(days => $3) WHERE agent_id = $1 AND thread_id = $2",
    [agentId, threadId, daysAgo],
  );
}

async function snapshot(): Promise<string> {
  const { rows } = await db.query(
    `SELECT 'cp' AS t, thread_id, count(*)::int AS n FROM checkpoints GROUP BY thread_id
     UNION ALL SELECT 'bl', thread_id, count(*)::int FROM checkpoint_blobs GROUP BY thread_id
     UNION ALL SELECT 'wr', thread_id, count(*)::int FROM checkpoint_writes GROUP BY thread_id
     UNION ALL SELECT 'pm', agent_id || ':' || thread_id, count(*)::int FROM persistent_memory GROUP BY 2
     UNION ALL SELECT 'rg', storage_thread_id, 1 FROM llamon_threads
     ORDER BY 1, 2`,
  );
  return JSON.stringify(rows);
}

/** context_id column of the dry-run table. */
function listedThreads(stdout: string): string[] {
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) => l.startsWith("context_id"));
  if (header < 0) return [];
  const ids: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (line.trim() === "") break;
    ids.push(line.split(/\s{2,}/)[0] as string);
  }
  return ids;
}

function deletedThreads(stdout: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.indexOf("deleted threads:");
  const ids: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break;
    ids.push(line.trim());
  }
  return ids;
}

describe("llamon memory prune", () => {
  it("R4.3 dry run changes nothing and lists exactly the threads --apply then deletes; another agent's threads survive; the age cut-off holds", async () => {
    await thread("shop", "old-a", 40);
    await thread("shop", "old-b", 31);
    await thread("shop", "recent", 29);
    await thread("shop-eu", "old-a", 400);
    await thread("shop-eu", "older", 400);
    const before = await snapshot();

    const dry = await run(["memory", "prune", "--older-than-days", "30"], { cwd: project });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("agent: shop");
    expect(listedThreads(dry.stdout)).toEqual(["old-a", "old-b"]);
    expect(dry.stdout).toMatch(/total: 2 thread\(s\) · checkpoints \d+ · checkpoint_blobs \d+/);
    expect(dry.stdout).toContain("dry run: nothing was deleted");
    expect(await snapshot()).toBe(before);

    const applied = await run(["memory", "prune", "--older-than-days", "30", "--apply"], {
      cwd: project,
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(deletedThreads(applied.stdout)).toEqual(listedThreads(dry.stdout));
    expect(applied.stdout).toMatch(/deleted 2 thread\(s\) of agent shop: checkpoints [1-9]/);

    const left = await run(
      ["memory", "prune", "--all", "--json", "--agent-id", "shop", "--dsn", database.dsn],
      { cwd: tmpdir() },
    );
    const plan = JSON.parse(left.stdout) as { threads: { thread_id: string }[]; dry_run: boolean };
    expect(plan.dry_run).toBe(true);
    expect(plan.threads.map((t) => t.thread_id)).toEqual(["recent"]);
    const other = await run(
      ["memory", "prune", "--all", "--json", "--agent-id", "shop-eu", "--dsn", database.dsn],
      { cwd: tmpdir() },
    );
    expect(
      (JSON.parse(other.stdout) as { threads: { thread_id: string }[] }).threads.map(
        (t) => t.thread_id,
      ),
    ).toEqual(["old-a", "older"]);
  });

  it("R4.3 --thread-id X --apply deletes one thread of the project's agent (AGENT_ID from .dev.vars)", async () => {
    await thread("shop", "user-session-abc", 0);
    await thread("shop-eu", "user-session-abc", 0);
    const result = await run(
      ["memory", "prune", "--thread-id", "user-session-abc", "--apply", "--json"],
      { cwd: project },
    );
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      deleted: string[];
      deleted_totals: Record<string, { rows: number }>;
    };
    expect(json.deleted).toEqual(["user-session-abc"]);
    expect(json.deleted_totals.persistent_memory?.rows).toBe(2); // summary + last_turn
    expect(json.deleted_totals.llamon_threads?.rows).toBe(1);
    const { rows } = await db.query<{ agent_id: string }>(
      "SELECT agent_id FROM llamon_threads WHERE thread_id = 'user-session-abc'",
    );
    expect(rows).toEqual([{ agent_id: "shop-eu" }]);
  });

  it("--principal P prunes only P's conversations; --thread-id X names P's contextId X, and the same contextId of another principal or of anonymous stays", async () => {
    await thread("shop", "shared-chat", 0);
    await thread("shop", threadKey("alice", "shared-chat"), 0);
    await thread("shop", threadKey("bob", "shared-chat"), 0);
    const listed = await run(["memory", "prune", "--principal", "bob", "--json"], {
      cwd: project,
    });
    expect(listed.code, listed.stderr).toBe(0);
    const plan = JSON.parse(listed.stdout) as {
      threads: { principal: string; context_id: string }[];
    };
    expect(plan.threads.map((t) => [t.principal, t.context_id])).toEqual([["bob", "shared-chat"]]);
    const applied = await run(
      ["memory", "prune", "--principal", "alice", "--thread-id", "shared-chat", "--apply"],
      { cwd: project },
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect(deletedThreads(applied.stdout)).toEqual(["shared-chat (principal alice)"]);
    const { rows } = await db.query<{ thread_id: string }>(
      "SELECT thread_id FROM llamon_threads WHERE agent_id = 'shop' AND thread_id LIKE '%shared-chat' ORDER BY thread_id",
    );
    expect(rows.map((r) => r.thread_id)).toEqual([threadKey("bob", "shared-chat"), "shared-chat"]);
  });

  it("user mistakes exit 1 with a message that says what to do, no stack trace", async () => {
    const empty = await mkdtemp(join(tmpdir(), "llamon-prune-empty-"));
    const cases: [string[], RegExp, string?][] = [
      [
        ["memory", "prune", "--dsn", database.dsn, "--agent-id", "shop"],
        /--older-than-days N, --thread-id X, --principal P, or --all/,
      ],
      [
        ["memory", "prune", "--dsn", database.dsn, "--older-than-days", "30"],
        /no agent id: pass --agent-id/,
        empty,
      ],
      [
        ["memory", "prune", "--agent-id", "shop", "--older-than-days", "30"],
        /no database given/,
        empty,
      ],
      [
        ["memory", "prune", "--older-than-days", "thirty"],
        /--older-than-days must be a whole number/,
      ],
      [
        ["memory", "prune", "--agent-id", "Shop:1", "--all", "--dsn", database.dsn],
        /AGENT_ID "Shop:1" is not valid/,
      ],
      [["memory", "prune", "--all", "--older-than-days", "3"], /--all means every thread/],
      [
        [
          "memory",
          "prune",
          "--all",
          "--agent-id",
          "shop",
          "--dsn",
          "postgresql://nobody@localhost:1/none",
        ],
        /DB_UNAVAILABLE/,
      ],
    ];
    try {
      for (const [args, pattern, cwd] of cases) {
        const { code, stderr } = await run(args, { cwd: cwd ?? project });
        expect(code, args.join(" ")).toBe(1);
        expect(stderr, args.join(" ")).toMatch(pattern);
        expect(stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  }, 120_000);
});
