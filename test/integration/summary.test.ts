/**
 * The out-of-window summary on the postgres backend (R7.3–R7.5): whole turns with runTurn +
 * NeonSaver over the Neon driver → local Neon-protocol proxy → Postgres, the offline model
 * answering, and step 6 of a turn (summaryAfterTurn) running the job in the background the
 * way a Worker without a queue binding does. The queue consumer's postgres path
 * (summarizeInPostgres) is exercised with the same env a Worker has.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { type MemoryConfig, resolveMemoryConfig } from "../../src/memory/config.ts";
import { parseSummaryCache, SUMMARY_HEADER, SUMMARY_KEY } from "../../src/memory/index.ts";
import { summaryAfterTurn } from "../../src/queue/enqueue.ts";
import { summarizeInPostgres } from "../../src/queue/host.ts";
import type { SummarizeJob } from "../../src/queue/jobs.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

const agent = testAgent("Summary agent");

class FailingModel extends OfflineChatModel {
  attempts = 0;
  override async _generate(): Promise<never> {
    this.attempts += 1;
    throw new Error("summarizer model unavailable");
  }
}

function config(patch: Record<string, unknown> = {}): MemoryConfig {
  return resolveMemoryConfig({
    code: { summarize: true, summarize_threshold: 40, window_size: 20, ...patch },
  }).config;
}

/** The Worker env of the consumer's postgres path (Neon driver through the proxy). */
function workerEnv(agentId: string) {
  return {
    AGENT_ID: agentId,
    POSTGRES_MEMORY_DSN: backend.neonDsn,
    LLAMON_NEON_FETCH_ENDPOINT: backend.proxy.url,
  };
}

async function storedMessages(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

interface TurnOptions {
  agentId: string;
  threadId: string;
  text: string;
  model?: OfflineChatModel;
  summarizer?: OfflineChatModel;
  cfg?: MemoryConfig;
}

/** One turn as the request path runs it, then step 6 (summary due → background job). */
async function turn(options: TurnOptions) {
  const saver = new NeonSaver({ db: backend.neon, agentId: options.agentId, guardHead: true });
  const log = createMemoryLogger();
  const cfg = options.cfg ?? config();
  const model = options.model ?? new OfflineChatModel();
  const result = await runTurn(
    { agent, config: cfg, model, checkpointer: saver, log },
    { threadId: options.threadId, text: options.text },
  );
  const background: Promise<unknown>[] = [];
  const job = await summaryAfterTurn(
    {
      threadId: options.threadId,
      thread: await storedMessages(options.agentId, options.threadId),
      added: result.added.length,
      memory: result.memory?.thread,
    },
    {
      env: workerEnv(options.agentId),
      config: cfg,
      saver,
      model: options.summarizer ?? new OfflineChatModel(),
      waitUntil: (p) => background.push(p),
      log,
    },
  );
  await Promise.all(background);
  return { result, job, log, model };
}

async function summaryRows(agentId: string, threadId: string) {
  const { rows } = await backend.pg.query<{ value: unknown; updated_at: Date }>(
    "SELECT value, updated_at FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2 AND key = $3",
    [agentId, threadId, SUMMARY_KEY],
  );
  return rows;
}

async function checkpointSnapshot(agentId: string, threadId: string): Promise<string> {
  const id = `${agentId}:${threadId}`;
  const tables = [
    "SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata FROM checkpoints WHERE thread_id = $1 ORDER BY checkpoint_id",
    "SELECT checkpoint_ns, channel, version, type, encode(blob, 'base64') AS blob FROM checkpoint_blobs WHERE thread_id = $1 ORDER BY channel, version",
    "SELECT checkpoint_id, task_id, idx, channel, type FROM checkpoint_writes WHERE thread_id = $1 ORDER BY checkpoint_id, task_id, idx",
  ];
  const out: unknown[] = [];
  for (const text of tables) out.push((await backend.pg.query(text, [id])).rows);
  return JSON.stringify(out);
}

describe("summary of out-of-window history on postgres", () => {
  it("R7.3 one summary row per thread, replaced on each re-summary, read again after a restart (R7.4 injected)", async () => {
    const summarizer = new OfflineChatModel();
    const jobs: (SummarizeJob | undefined)[] = [];
    for (let t = 1; t <= 30; t++) {
      const { job } = await turn({
        agentId: "agent-sum",
        threadId: "t-rows",
        text: `message ${t}`,
        summarizer,
      });
      jobs.push(job);
    }
    // due after turn 20 (40 messages: [0, 20) out of the window) and turn 30 ([20, 40))
    expect(jobs.map((j, i) => (j ? i + 1 : 0)).filter(Boolean)).toEqual([20, 30]);
    expect(jobs[19]?.upto).toBe(20);
    expect(jobs[29]?.upto).toBe(40);
    expect(summarizer.calls).toHaveLength(2);
    const rows = await summaryRows("agent-sum", "t-rows");
    expect(rows).toHaveLength(1); // upsert: never accumulating
    const cache = parseSummaryCache(rows[0]?.value);
    expect(cache).toMatchObject({ covers: 40, version: 1 });
    expect(cache?.covers_id).toBe((await storedMessages("agent-sum", "t-rows"))[39]?.id);
    // the second summary was made from the first one plus the 20 newly evicted messages
    const secondInput = String(summarizer.calls[1]?.messages[1]?.content);
    expect(secondInput).toContain("message 11"); // message 11 is index 20: first one of [20, 40)
    expect(secondInput).not.toContain("user: message 10\n");

    // "restart": a fresh saver and model; the next turn's prompt carries the cached summary
    const model = new OfflineChatModel();
    await turn({ agentId: "agent-sum", threadId: "t-rows", text: "what did we say?", model });
    const system = String(model.lastCall?.messages[0]?.content);
    expect(system).toContain(`${SUMMARY_HEADER}\n${cache?.text.trim()}`);
  });

  it("R7.4 summarizing never changes the stored checkpoints", async () => {
    for (let t = 1; t <= 20; t++) {
      await turn({
        agentId: "agent-ckpt",
        threadId: "t-ckpt",
        text: `m${t}`,
        cfg: config({ summarize: false }),
      });
    }
    const before = await checkpointSnapshot("agent-ckpt", "t-ckpt");
    const storedBefore = await storedMessages("agent-ckpt", "t-ckpt");
    const outcome = await summarizeInPostgres(
      workerEnv("agent-ckpt"),
      { type: "summarize", agent_id: "agent-ckpt", thread_id: "t-ckpt", upto: 20 },
      { model: new OfflineChatModel() },
    );
    expect(outcome).toMatchObject({ status: "summarized", from: 0, covers: 20 });
    expect(await checkpointSnapshot("agent-ckpt", "t-ckpt")).toBe(before);
    expect(await storedMessages("agent-ckpt", "t-ckpt")).toHaveLength(storedBefore.length);
    expect(await summaryRows("agent-ckpt", "t-ckpt")).toHaveLength(1);
  });

  it("R7.5 a failing summarizer keeps the previous cache and the turn still answers", async () => {
    const memory = createPostgresMemory(backend.neon, "agent-fail");
    const previous = {
      text: "earlier: the user is Mina",
      covers: 2,
      updated_at: "2026-01-01T00:00:00.000Z",
      version: 1,
    };
    await memory.set("t-fail", SUMMARY_KEY, previous);
    const failing = new FailingModel();
    let last: Awaited<ReturnType<typeof turn>> | undefined;
    for (let t = 1; t <= 21; t++) {
      last = await turn({
        agentId: "agent-fail",
        threadId: "t-fail",
        text: `hello ${t}`,
        summarizer: failing,
      });
    }
    // after turn 21: 42 messages, 22 out of the window, 20 (one period) since the summary
    expect(last?.job?.upto).toBe(22);
    expect(failing.attempts).toBe(1); // tried once in the background, and it failed
    expect(last?.result.reply).toMatch(/^offline-model: received=20 has_prior=true/);
    expect(
      last?.log.lines.some((l) => l.level === "error" && /background run failed/.test(l.line)),
    ).toBe(true);
    expect(await memory.get("t-fail", SUMMARY_KEY)).toEqual(previous);
    // and the previous summary still reaches the model
    const model = new OfflineChatModel();
    await turn({
      agentId: "agent-fail",
      threadId: "t-fail",
      text: "who am I?",
      model,
      summarizer: failing,
    });
    expect(String(model.lastCall?.messages[0]?.content)).toContain("earlier: the user is Mina");
  });

  it("R7.5 duplicate delivery of a job does no double work", async () => {
    for (let t = 1; t <= 20; t++) {
      await turn({
        agentId: "agent-dup",
        threadId: "t-dup",
        text: `m${t}`,
        cfg: config({ summarize: false }),
      });
    }
    const summarizer = new OfflineChatModel();
    const env = workerEnv("agent-dup");
    const job: SummarizeJob = {
      type: "summarize",
      agent_id: "agent-dup",
      thread_id: "t-dup",
      upto: 20,
    };
    const first = await summarizeInPostgres(env, job, { model: summarizer });
    const [row] = await summaryRows("agent-dup", "t-dup");
    const again = await Promise.all([
      summarizeInPostgres(env, job, { model: summarizer }),
      summarizeInPostgres(env, { ...job, upto: 10 }, { model: summarizer }),
    ]);
    expect(first.status).toBe("summarized");
    expect(again.map((o) => o.status)).toEqual(["skipped", "skipped"]);
    expect(summarizer.calls).toHaveLength(1);
    const rows = await summaryRows("agent-dup", "t-dup");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.updated_at).toEqual(row?.updated_at);
    expect(rows[0]?.value).toEqual(row?.value);
  });

  it("R2.3 a job of one agent never touches another agent's thread with the same contextId", async () => {
    for (let t = 1; t <= 20; t++) {
      await turn({
        agentId: "agent-a",
        threadId: "shared",
        text: `a${t}`,
        cfg: config({ summarize: false }),
      });
    }
    const outcome = await summarizeInPostgres(
      workerEnv("agent-b"),
      { type: "summarize", agent_id: "agent-b", thread_id: "shared", upto: 20 },
      { model: new OfflineChatModel() },
    );
    expect(outcome).toMatchObject({ status: "skipped", reason: "not_in_thread" });
    expect(await summaryRows("agent-a", "shared")).toHaveLength(0);
    expect(await summaryRows("agent-b", "shared")).toHaveLength(0);
  });
});
