/**
 * R4.3 prune on a real database (server, or PGlite with LLAMON_TEST_DB=embedded): threads
 * written by real turns (NeonSaver over the Neon proxy, offline model), then planned and
 * deleted over node-postgres and over Neon HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { isLlamonError } from "../../src/errors.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import type { Db } from "../../src/store/db.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import {
  applyPrune,
  PRUNE_TABLES,
  pendingTaskErasures,
  planPrune,
  sumCounts,
} from "../../src/store/prune.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend.close();
});

const agent = defineAgent({ name: "prune test", description: "", system: "You are brief." });

async function talk(agentId: string, threadId: string, turns = 2): Promise<void> {
  for (let i = 0; i < turns; i++) {
    await runTurn(
      {
        agent,
        config: resolveMemoryConfig({}).config,
        model: new OfflineChatModel(),
        checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
        log: createMemoryLogger(),
      },
      { threadId, text: `message ${i + 1} in ${threadId}` },
    );
  }
  await createPostgresMemory(backend.neon, agentId).set(threadId, "summary", {
    text: `summary of ${threadId}`,
  });
}

async function age(agentId: string, threadId: string, days: number): Promise<void> {
  await backend.pg.query(
    "UPDATE llamon_threads SET last_activity_at = now() - make_interval(days => $3) WHERE agent_id = $1 AND thread_id = $2",
    [agentId, threadId, days],
  );
}

/** Rows per table that belong to an agent (storage ids and agent_id columns). */
type TableRows = Record<(typeof PRUNE_TABLES)[number], number>;

async function rowsOf(db: Db, agentId: string): Promise<TableRows> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM checkpoints WHERE starts_with(thread_id, $2)) AS checkpoints,
            (SELECT count(*) FROM checkpoint_blobs WHERE starts_with(thread_id, $2)) AS checkpoint_blobs,
            (SELECT count(*) FROM checkpoint_writes WHERE starts_with(thread_id, $2)) AS checkpoint_writes,
            (SELECT count(*) FROM persistent_memory WHERE agent_id = $1) AS persistent_memory,
            (SELECT count(*) FROM llamon_threads WHERE agent_id = $1) AS llamon_threads`,
    [agentId, `${agentId}:`],
  );
  return Object.fromEntries(
    Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)]),
  ) as TableRows;
}

describe("memory prune (store)", () => {
  it("R4.3 dry run lists the old threads of one agent and changes nothing; apply deletes exactly those, across all tables", async () => {
    await talk("shop", "old-1");
    await talk("shop", "old-2");
    await talk("shop", "fresh");
    // Same thread ids for another agent, and an agent whose id extends this one's.
    await talk("shop-eu", "old-1");
    await talk("shop_2", "old-2");
    await age("shop", "old-1", 45);
    await age("shop", "old-2", 31);
    await age("shop-eu", "old-1", 400);
    await age("shop_2", "old-2", 400);
    const before = await rowsOf(backend.pg, "shop");
    const othersBefore = [await rowsOf(backend.pg, "shop-eu"), await rowsOf(backend.pg, "shop_2")];

    const plan = await planPrune(backend.pg, { agentId: "shop", olderThanDays: 30 });
    expect(plan.threads.map((t) => t.threadId)).toEqual(["old-1", "old-2"]);
    for (const t of plan.threads) {
      expect(t.registered).toBe(true);
      expect(t.tables.checkpoints.rows).toBeGreaterThan(0);
      expect(t.tables.checkpoint_blobs.rows).toBeGreaterThan(0);
      expect(t.tables.persistent_memory.rows).toBe(2); // summary + last_turn
      expect(t.tables.llamon_threads.rows).toBe(1);
      expect(t.bytes).toBeGreaterThan(0);
      expect(t.lastActivityAt?.getTime()).toBeLessThan(plan.cutoff?.getTime() ?? 0);
    }
    expect(await rowsOf(backend.pg, "shop")).toEqual(before);

    const result = await applyPrune(backend.pg, plan);
    expect(result.deleted).toEqual(["old-1", "old-2"]);
    expect(result.skipped).toEqual([]);
    for (const table of PRUNE_TABLES) {
      expect(result.tables[table].rows).toBe(plan.totals[table].rows);
      // Sizes are measured again while deleting (row headers may differ by a few bytes).
      expect(Math.abs(result.tables[table].bytes - plan.totals[table].bytes)).toBeLessThanOrEqual(
        plan.totals[table].bytes * 0.05,
      );
    }

    const after = await rowsOf(backend.pg, "shop");
    const fresh = plan.threads.length; // two registry rows gone, "fresh" left
    expect(after.llamon_threads).toBe(before.llamon_threads - fresh);
    expect(after.persistent_memory).toBe(before.persistent_memory - 4);
    expect(after.checkpoints).toBe(before.checkpoints - plan.totals.checkpoints.rows);
    expect(after.checkpoint_blobs).toBe(
      before.checkpoint_blobs - plan.totals.checkpoint_blobs.rows,
    );
    expect(
      (await planPrune(backend.pg, { agentId: "shop" })).threads.map((t) => t.threadId),
    ).toEqual(["fresh"]);
    expect([await rowsOf(backend.pg, "shop-eu"), await rowsOf(backend.pg, "shop_2")]).toEqual(
      othersBefore,
    );
  });

  it("R4.3 --thread-id selects one thread (age filter combined), reports ids the agent does not have", async () => {
    await talk("desk", "keep");
    await talk("desk", "user-session-abc");
    await talk("other-desk", "user-session-abc");
    const plan = await planPrune(backend.neon, {
      agentId: "desk",
      threadIds: ["user-session-abc", "nope"],
    });
    expect(plan.threads.map((t) => t.threadId)).toEqual(["user-session-abc"]);
    expect(plan.notMatched).toEqual(["nope"]);
    const tooRecent = await planPrune(backend.neon, {
      agentId: "desk",
      threadIds: ["user-session-abc"],
      olderThanDays: 1,
    });
    expect(tooRecent.threads).toEqual([]);
    expect(tooRecent.notMatched).toEqual(["user-session-abc"]);

    const result = await applyPrune(backend.neon, plan);
    expect(result.deleted).toEqual(["user-session-abc"]);
    expect(
      (await planPrune(backend.pg, { agentId: "desk" })).threads.map((t) => t.threadId),
    ).toEqual(["keep"]);
    expect(
      (await planPrune(backend.pg, { agentId: "other-desk" })).threads.map((t) => t.threadId),
    ).toEqual(["user-session-abc"]);
  });

  it("R4.3 deletes in batches (one transaction each) and skips a thread that became active after the plan", async () => {
    for (const id of ["b1", "b2", "b3", "b4"]) {
      await talk("batcher", id, 1);
      await age("batcher", id, 10);
    }
    const plan = await planPrune(backend.pg, { agentId: "batcher", olderThanDays: 5 });
    expect(plan.threads).toHaveLength(4);
    await age("batcher", "b3", 0); // a new turn arrived meanwhile
    const progress: number[] = [];
    const result = await applyPrune(backend.pg, plan, {
      batchSize: 3,
      onBatch: (p) => progress.push(p.batch),
    });
    expect(result.batches).toBe(2);
    expect(progress).toEqual([1, 2]);
    expect(result.deleted).toEqual(["b1", "b2", "b4"]);
    expect(result.skipped).toEqual(["b3"]);
    // The deleted conversations' A2A task records (in the Worker's Durable Objects) are
    // queued for erasure by the same statement; the skipped one is not.
    expect(result.erasuresQueued).toBe(3);
    expect(await pendingTaskErasures(backend.pg, "batcher")).toBe(3);
    const { rows: queued } = await backend.pg.query<{ thread_id: string }>(
      "SELECT thread_id FROM llamon_task_erasures WHERE agent_id = 'batcher' ORDER BY thread_id",
    );
    expect(queued.map((r) => r.thread_id)).toEqual(["b1", "b2", "b4"]);
    const left = await planPrune(backend.pg, { agentId: "batcher" });
    expect(left.threads.map((t) => t.threadId)).toEqual(["b3"]);
    expect(sumCounts(left.threads[0]?.tables ?? plan.totals).rows).toBeGreaterThan(2);
  });

  it("R4.3 finds threads without a registry row (age from their newest checkpoint) and memory-only threads", async () => {
    await talk("orphans", "no-registry", 1);
    await backend.pg.query("DELETE FROM llamon_threads WHERE agent_id = $1", ["orphans"]);
    await createPostgresMemory(backend.pg, "orphans").set("memory-only", "facts", ["likes tea"]);
    await createPostgresMemory(backend.pg, "orphans").set(null, "settings", { tone: "brief" });
    const recent = await planPrune(backend.pg, { agentId: "orphans", olderThanDays: 1 });
    expect(recent.threads).toEqual([]);
    const plan = await planPrune(backend.pg, { agentId: "orphans" });
    // Least recently active first: the checkpoint was written before the memory row.
    expect(plan.threads.map((t) => [t.threadId, t.registered])).toEqual([
      ["no-registry", false],
      ["memory-only", false],
    ]);
    await applyPrune(backend.pg, plan);
    const rows = await rowsOf(backend.pg, "orphans");
    // Only the agent-level settings row (thread_id '') is left: prune removes threads only.
    expect(rows).toEqual({
      checkpoints: 0,
      checkpoint_blobs: 0,
      checkpoint_writes: 0,
      persistent_memory: 1,
      llamon_threads: 0,
    });
  });

  it("rejects bad input and says how to fix a database without llamon's tables", async () => {
    await expect(planPrune(backend.pg, { agentId: "Bad:Id" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
    });
    await expect(planPrune(backend.pg, { agentId: "ok", olderThanDays: -1 })).rejects.toMatchObject(
      { code: "CONFIG_INVALID" },
    );
    await backend.pg.query("CREATE SCHEMA IF NOT EXISTS empty_schema");
    const error = await planPrune(
      {
        ...backend.pg,
        query: (text, params) =>
          backend.pg.query(
            text.replaceAll("llamon_threads", "empty_schema.llamon_threads"),
            params,
          ),
      },
      { agentId: "ok" },
    ).catch((e: unknown) => e);
    expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain("llamon migrate");
  });
});
