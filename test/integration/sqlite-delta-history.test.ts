/**
 * SqliteSaver's ancestor walk for delta channels (the thread's messages, store/delta.ts) is one
 * recursive query (SQ_SELECT_DELTA_HISTORY) and returns exactly what LangGraph's own walk
 * (`BaseCheckpointSaver.getDeltaChannelHistory`: a getTuple per ancestor) returns: at the
 * head, around snapshots, at the first checkpoints, on threads written in the old layout
 * (the whole list in every checkpoint), for several channels at once, and per agent (R2.3).
 * On Node's built-in SQLite, the same synchronous SQL a Durable Object's storage runs.
 */
import { DatabaseSync } from "node:sqlite";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  END,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { emptyCheckpoint, isDeltaSnapshot } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { MESSAGES_SNAPSHOT_EVERY, readThreadMessages } from "../../src/store/delta.ts";
import { SqliteSaver } from "../../src/store/sqlite-saver.ts";
import { storageThreadId } from "../../src/store/thread-key.ts";
import { nodeSqlite } from "../helpers/node-sqlite.ts";

let database: DatabaseSync;
let sql: ReturnType<typeof nodeSqlite>;
beforeAll(() => {
  database = new DatabaseSync(":memory:");
  sql = nodeSqlite(database);
});
afterAll(() => {
  database.close();
});

const agent = defineAgent({
  name: "Delta agent",
  description: "for tests",
  system: "You are a helpful agent.",
});

function deps(agentId: string): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: {} }).config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    checkpointer: new SqliteSaver({ sql, agentId }),
    // The delta layout this walk serves (threads stored before the live tail, schema v3).
    messagesStorage: "delta",
  };
}

const text = (i: number) => `message number ${String(i).padStart(4, "0")} of a long conversation`;

/** Checkpoints of a thread, oldest first, and whether each stores the messages' value. */
function checkpoints(agentId: string, threadId: string) {
  return database
    .prepare(
      `SELECT cp.checkpoint_id AS id,
              EXISTS (SELECT 1 FROM checkpoint_blobs b
                       WHERE b.thread_id = cp.thread_id AND b.checkpoint_ns = cp.checkpoint_ns
                         AND b.channel = 'messages' AND b.type <> 'empty'
                         AND b.version = CAST(json_extract(cp.checkpoint, '$.channel_versions.messages') AS TEXT)) AS full
         FROM checkpoints cp
        WHERE cp.thread_id = ? AND cp.checkpoint_ns = ''
        ORDER BY cp.checkpoint_id`,
    )
    .all(storageThreadId(agentId, threadId))
    .map((r) => ({ id: String(r.id), full: Number(r.full) === 1 }));
}

const at = (threadId: string, checkpointId?: string): RunnableConfig => ({
  configurable: {
    thread_id: threadId,
    checkpoint_ns: "",
    ...(checkpointId === undefined ? {} : { checkpoint_id: checkpointId }),
  },
});

/** The override equals LangGraph's walk, and runs one statement. */
async function expectSameAsReference(
  saver: SqliteSaver,
  config: RunnableConfig,
  channels: string[],
  label: string,
) {
  const before = sql.statements;
  const ours = await saver.getDeltaChannelHistory({ config, channels });
  expect(sql.statements - before, `${label}: statements`).toBe(1);
  const reference = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, {
    config,
    channels,
  });
  expect(ours, label).toEqual(reference);
  return ours;
}

describe("SqliteSaver.getDeltaChannelHistory: one recursive query, LangGraph's result", () => {
  const turns = 120;

  it("a thread of 120 turns: at the head, around every snapshot and at the first checkpoints", async () => {
    // Another agent's thread under the same contextId, in the same storage: never walked.
    for (let i = 1; i <= 3; i++)
      await runTurn(deps("delta-other"), { threadId: "long", text: "x" });
    for (let i = 1; i <= turns; i++) {
      await runTurn(deps("delta-sq"), { threadId: "long", text: text(i), messageId: `m-${i}` });
    }
    const rows = checkpoints("delta-sq", "long");
    expect(rows.length).toBeGreaterThanOrEqual(turns);
    const offset = rows.length - turns;
    const full = rows.flatMap((r, i) => (r.full ? [i] : []));
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(full[0]).toBe(offset + MESSAGES_SNAPSHOT_EVERY - 1);

    const saver = new SqliteSaver({ sql, agentId: "delta-sq" });
    const points = new Set([rows.length - 1, rows.length - 2, 0, 1, 2, 3]);
    for (const s of full) for (const k of [s - 1, s, s + 1, s + 2]) points.add(k);
    for (const k of [...points].filter((k) => k >= 0 && k < rows.length).sort((a, b) => a - b)) {
      const id = rows[k]?.id as string;
      const history = await expectSameAsReference(saver, at("long", id), ["messages"], `#${k}`);
      // Walked from the parent up to the nearest snapshot (the checkpoint's own is not used).
      const parentStores = full.filter((s) => s < k).at(-1);
      expect(history.messages?.seed !== undefined, `#${k} seed`).toBe(parentStores !== undefined);
      if (parentStores !== undefined) expect(isDeltaSnapshot(history.messages?.seed)).toBe(true);
      // What the checkpoint holds: two messages per turn up to it.
      const { messages } = await readThreadMessages(saver, at("long", id));
      expect(messages, `#${k} messages`).toHaveLength(2 * Math.max(0, k - offset + 1));
    }
    // The latest checkpoint when none is named.
    await expectSameAsReference(saver, at("long"), ["messages"], "head (unnamed)");

    const { messages } = await readThreadMessages(saver, at("long"));
    expect(messages).toHaveLength(2 * turns);
    expect(messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual(
      Array.from({ length: turns }, (_, i) => text(i + 1)),
    );
    expect(messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.id)).toEqual(
      Array.from({ length: turns }, (_, i) => `m-${i + 1}`),
    );
    expect(messages.every((m, i) => (i % 2 === 0 ? HumanMessage : AIMessage).isInstance(m))).toBe(
      true,
    );
  });

  it("several channels at once — never written, never stored, a duplicate — walk to the root", async () => {
    const saver = new SqliteSaver({ sql, agentId: "delta-sq" });
    const rows = checkpoints("delta-sq", "long");
    const channels = ["incoming", "messages", "never_written", "messages"];
    for (const k of [rows.length - 1, Math.floor(rows.length / 2), 1, 0]) {
      const history = await expectSameAsReference(
        saver,
        at("long", rows[k]?.id),
        channels,
        `#${k}`,
      );
      expect(Object.keys(history).sort()).toEqual(["incoming", "messages", "never_written"]);
      // A turn stores only its messages' writes; the input channel is never stored either.
      expect(history.never_written).toEqual({ writes: [] });
      expect(history.incoming).toEqual({ writes: [] });
    }
    expect(await saver.getDeltaChannelHistory({ config: at("long"), channels: [] })).toEqual({});
  });

  it("a hand-built chain: channels seeded at different ancestors, many tasks' writes in replay order", async () => {
    const saver = new SqliteSaver({ sql, agentId: "delta-hand" });
    const thread = "hand";
    let config: RunnableConfig = at(thread);
    const versions: Record<string, number> = {};
    // [values stored, channels updated] per checkpoint; cp-5 is the target.
    const layout: [Record<string, unknown>, string[]][] = [
      [{ a: "a@1", b: "b@1" }, ["a", "b"]],
      [{}, ["a"]],
      [{ b: "b@3" }, ["a", "b"]],
      [{}, ["a", "b", "c"]],
      [{ a: "a@5" }, ["a", "b"]],
    ];
    const ids: string[] = [];
    for (const [n, [values, updated]] of layout.entries()) {
      const newVersions: Record<string, number> = {};
      for (const ch of updated) {
        versions[ch] = (versions[ch] ?? 0) + 1;
        newVersions[ch] = versions[ch] as number;
      }
      const checkpoint = {
        ...emptyCheckpoint(),
        id: `cp-${n + 1}`,
        channel_values: values,
        channel_versions: { ...versions },
      };
      config = await saver.put(
        config,
        checkpoint,
        { source: "loop", step: n, parents: {} },
        newVersions,
      );
      ids.push(checkpoint.id);
      if (n === layout.length - 1) break;
      // Tasks stored in an order unlike the replay order; ids compared by code point
      // (U+FFFF before U+1F600, unlike UTF-16 order); eleven writes (idx 10 after 9).
      const tasks: [string, string][] = [
        ["t\u{1F600}", "~b"],
        ["t\uFFFF", "~b"],
        ["z", ""],
        ["a", "~c"],
      ];
      for (const [taskId, taskPath] of tasks) {
        const writes: [string, unknown][] = Array.from({ length: 11 }, (_, i) => [
          ["a", "b", "c", "d"][i % 4] as string,
          `${n + 1}/${taskId}/${i}`,
        ]);
        await saver.putWrites(config, writes, taskId, taskPath);
      }
    }
    const target = at(thread, ids.at(-1));
    const history = await expectSameAsReference(saver, target, ["c", "b", "a"], "target");
    // From the parent (the target's own a@5 is not used) to each channel's nearest value.
    expect(history.a?.seed).toBe("a@1");
    expect(history.b?.seed).toBe("b@3");
    expect(history.c?.seed).toBeUndefined();
    const order = (cp: number) =>
      [
        ["", "z"],
        ["~b", "t\uFFFF"],
        ["~b", "t\u{1F600}"],
        ["~c", "a"],
      ].flatMap(([, task]) => [0, 4, 8].map((i) => `${cp}/${task}/${i}`));
    expect(history.a?.writes.map((w) => w[2])).toEqual([1, 2, 3, 4].flatMap(order));
    expect(history.b?.writes.map((w) => w[2])).toEqual(
      [3, 4].flatMap((cp) =>
        order(cp).map((v) => v.replace(/\/(\d+)$/, (_, i) => `/${Number(i) + 1}`)),
      ),
    );
    expect(history.c?.writes).toHaveLength(4 * 4 * 3);
    for (const id of ids) {
      for (const channels of [["a"], ["b"], ["c"], ["d", "a"], ["b", "a", "c", "d"]]) {
        await expectSameAsReference(saver, at(thread, id), channels, `${id} ${channels}`);
      }
    }
  });

  it("scoped to the saver's agent: another agent, an unknown thread or checkpoint walk nothing", async () => {
    const other = new SqliteSaver({ sql, agentId: "delta-other" });
    const ours = await expectSameAsReference(other, at("long"), ["messages"], "other agent");
    // Three turns: one write each (the user message and the reply, one graph step), written
    // at the head's ancestors (a checkpoint holds the writes of the step after it).
    expect(ours.messages?.writes).toHaveLength(3);
    expect((await readThreadMessages(other, at("long"))).messages).toHaveLength(6);
    const stranger = new SqliteSaver({ sql, agentId: "delta-nobody" });
    expect(
      await expectSameAsReference(stranger, at("long"), ["messages"], "no such agent"),
    ).toEqual({ messages: { writes: [] } });
    const saver = new SqliteSaver({ sql, agentId: "delta-sq" });
    await expectSameAsReference(saver, at("nope"), ["messages"], "no such thread");
    await expectSameAsReference(saver, at("long", "no-such-id"), ["messages"], "no such id");
  });

  it("a thread written in the old layout (the whole list in each checkpoint), continued as deltas", async () => {
    const saver = new SqliteSaver({ sql, agentId: "delta-legacy" });
    const legacy = new StateGraph(MessagesAnnotation)
      .addNode("agent", (s: typeof MessagesAnnotation.State) => ({
        messages: [
          new AIMessage({
            content: `old reply ${s.messages.length}`,
            id: `r-${s.messages.length}`,
          }),
        ],
      }))
      .addEdge(START, "agent")
      .addEdge("agent", END)
      .compile({ checkpointer: saver });
    for (const t of ["old one", "old two"]) {
      await legacy.invoke(
        { messages: [new HumanMessage({ content: t, id: `legacy-${t}` })] },
        { configurable: { thread_id: "old" } },
      );
    }
    const before = (await readThreadMessages(saver, at("old"))).messages;
    expect(before.map((m) => m.content)).toEqual([
      "old one",
      "old reply 1",
      "old two",
      "old reply 3",
    ]);
    const legacyCount = checkpoints("delta-legacy", "old").length;

    for (let i = 1; i <= 8; i++) {
      await runTurn(deps("delta-legacy"), { threadId: "old", text: text(i) });
    }
    const rows = checkpoints("delta-legacy", "old");
    for (let k = 0; k < rows.length; k++) {
      await expectSameAsReference(saver, at("old", rows[k]?.id), ["messages"], `#${k}`);
      await expectSameAsReference(
        saver,
        at("old", rows[k]?.id),
        ["messages", "never_written"],
        `#${k} (2 channels)`,
      );
    }
    // The walk from the head ends at the last checkpoint of the old layout: its plain list.
    const head = await expectSameAsReference(saver, at("old"), ["messages"], "head");
    expect(Array.isArray(head.messages?.seed)).toBe(true);
    expect(rows[legacyCount - 1]?.full).toBe(true);

    const after = (await readThreadMessages(saver, at("old"))).messages;
    expect(after.slice(0, 4)).toEqual(before);
    expect(after).toHaveLength(4 + 2 * 8);
    expect(after.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual([
      "old one",
      "old two",
      ...Array.from({ length: 8 }, (_, i) => text(i + 1)),
    ]);
  });
});
