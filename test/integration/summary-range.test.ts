/**
 * The summary job on Postgres reads only the range it summarizes (queue/summarize.ts): the
 * head checkpoint, then [covers, upto) of the transcript by position, at most `maxMessages`
 * per job — successive jobs go on from the stored `covers` and together summarize every
 * message exactly once. Sizes are rows and bytes at the Neon-protocol proxy, not timings.
 */
import { tool } from "@langchain/core/tools";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { archivedPrefixOf } from "../../src/memory/live-tail.ts";
import { parseSummaryCache, SUMMARY_KEY } from "../../src/memory/summary.ts";
import { EVICTED_HEADER } from "../../src/memory/summary-input.ts";
import {
  loadThreadMessages,
  runSummarizeJob,
  type SummarizeOutcome,
  savedThread,
} from "../../src/queue/summarize.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { SELECT_TRANSCRIPT } from "../../src/store/sql.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Summary range agent");
const text = (i: number) => `message ${String(i).padStart(4, "0")} about the garden plans`;

/** A NeonSaver that counts the transcript messages it reads. */
class CountingSaver extends NeonSaver {
  transcriptRows = 0;
  override async readTranscript(threadId: string, from: number, to?: number) {
    const rows = await super.readTranscript(threadId, from, to);
    this.transcriptRows += rows.length;
    return rows;
  }
}

/** The offline model as the summarizer, recording what it was sent. */
class RecordingModel extends OfflineChatModel {
  readonly inputs: string[] = [];
  override async _generate(...args: Parameters<OfflineChatModel["_generate"]>) {
    // Only the evicted part (the previous summary may repeat earlier messages).
    this.inputs.push(String(args[0].at(-1)?.content).split(EVICTED_HEADER).at(-1) ?? "");
    return super._generate(...args);
  }
}

/** The summary job the queue would get for everything the thread moved to its transcript. */
async function jobUpToTranscript(
  reader: NeonSaver,
  agentId: string,
  threadId: string,
  whole: readonly { id?: string | undefined }[],
) {
  const tuple = await reader.getTuple({ configurable: { thread_id: threadId } });
  const upto = archivedPrefixOf(tuple?.checkpoint.channel_values.archived).messages;
  const job = {
    type: "summarize" as const,
    agent_id: agentId,
    thread_id: threadId,
    upto,
    upto_id: whole[upto - 1]?.id as string,
  };
  return { upto, job };
}

describe("summary job reads a bounded range (Postgres)", () => {
  it("R7.2 R7.5 each job reads at most its cap of the transcript; successive jobs cover everything once", async () => {
    const turns = 80;
    const turnDeps = {
      agent,
      config: resolveMemoryConfig({ code: { window_size: 6, recall: false } }).config,
      model: new OfflineChatModel(),
      log: createMemoryLogger(),
      checkpointer: new NeonSaver({ db: backend.neon, agentId: "sr-a", guardHead: true }),
    } satisfies TurnDeps;
    for (let i = 1; i <= turns; i++) {
      await runTurn({ ...turnDeps }, { threadId: "t", text: text(i) });
    }
    const reader = new NeonSaver({ db: backend.neon, agentId: "sr-a" });
    backend.proxy.resetStats();
    const whole = await loadThreadMessages(reader, "t");
    const wholeBytes = backend.proxy.stats.responseBytes;
    expect(whole).toHaveLength(2 * turns);
    const { upto, job } = await jobUpToTranscript(reader, "sr-a", "t", whole);
    expect(upto).toBeGreaterThan(140);

    const memory = createPostgresMemory(backend.neon, "sr-a");
    const model = new RecordingModel();
    const cap = 40;
    const outcomes: SummarizeOutcome[] = [];
    const reads: { rows: number; bytes: number }[] = [];
    for (let run = 0; run < 10; run++) {
      const saver = new CountingSaver({ db: backend.neon, agentId: "sr-a" });
      backend.proxy.resetStats();
      const outcome = await runSummarizeJob(
        { thread: savedThread(saver, "t"), memory, model, maxMessages: cap },
        job,
      );
      reads.push({ rows: saver.transcriptRows, bytes: backend.proxy.stats.responseBytes });
      outcomes.push(outcome);
      if (outcome.status === "skipped") break;
    }
    const summarized = outcomes.filter((o) => o.status === "summarized");
    expect(summarized.length).toBe(Math.ceil(upto / cap));
    expect(outcomes.at(-1)).toMatchObject({ status: "skipped", reason: "already_covered" });
    // Contiguous ranges from 0 to upto, each at most the cap.
    let at = 0;
    for (const o of summarized) {
      expect(o.status === "summarized" && o.from).toBe(at);
      expect(o.covers - at).toBeLessThanOrEqual(cap);
      at = o.covers;
    }
    expect(at).toBe(upto);
    expect(parseSummaryCache(await memory.get("t", SUMMARY_KEY))?.covers).toBe(upto);
    // Every job's read is bounded: its range (+ the message after it, + the upto_id check).
    for (const read of reads) {
      expect(read.rows).toBeLessThanOrEqual(cap + 2);
      expect(read.bytes).toBeLessThan(wholeBytes / 2);
    }
    // Each summarized message was sent to the summarizer exactly once.
    for (let i = 1; i <= upto / 2; i++) {
      const times = model.inputs.filter((input) => input.includes(`user: ${text(i)}`)).length;
      expect(times, text(i)).toBe(1);
    }
    expect(model.inputs.some((input) => input.includes(`user: ${text(turns)}`))).toBe(false);
  });

  it("R7.2 R3.2 a tool exchange longer than the per-job cap: bounded jobs go through it, every tool result reaches the summarizer once", async () => {
    const lookup = tool(async ({ q }) => `found ${q}`, {
      name: "lookup",
      description: "looks things up",
      schema: z.object({ q: z.string() }),
    });
    const turnDeps = {
      agent: testAgent("Wide exchange agent", { tools: [lookup] }),
      config: resolveMemoryConfig({ code: { window_size: 6, recall: false } }).config,
      model: new OfflineChatModel(),
      log: createMemoryLogger(),
      checkpointer: new NeonSaver({ db: backend.neon, agentId: "sr-w", guardHead: true }),
    } satisfies TurnDeps;
    const calls = 30;
    for (let i = 1; i <= 3; i++) await runTurn({ ...turnDeps }, { threadId: "w", text: text(i) });
    const wide = Array.from({ length: calls }, (_, k) => `/tool lookup {"q":"k${k}"}`).join("\n");
    await runTurn({ ...turnDeps }, { threadId: "w", text: wide });
    for (let i = 4; i <= 12; i++) await runTurn({ ...turnDeps }, { threadId: "w", text: text(i) });

    const reader = new NeonSaver({ db: backend.neon, agentId: "sr-w" });
    const whole = await loadThreadMessages(reader, "w");
    expect(whole.filter((m) => m.getType() === "tool")).toHaveLength(calls);
    const { upto, job } = await jobUpToTranscript(reader, "sr-w", "w", whole);
    expect(upto).toBeGreaterThan(6 + calls + 1);
    const memory = createPostgresMemory(backend.neon, "sr-w");
    const model = new RecordingModel();
    const cap = 10;
    let reached = 0;
    for (let run = 0; run < 20; run++) {
      const saver = new CountingSaver({ db: backend.neon, agentId: "sr-w" });
      const outcome = await runSummarizeJob(
        { thread: savedThread(saver, "w"), memory, model, maxMessages: cap },
        job,
      );
      if (outcome.status === "skipped") break;
      // The range, the message after it and the upto_id check: never the whole exchange.
      expect(saver.transcriptRows).toBeLessThanOrEqual(cap + 2);
      expect(outcome.from).toBe(reached);
      reached = outcome.covers + (outcome.partial ?? 0);
      expect(reached - outcome.from).toBeLessThanOrEqual(cap);
      const stored = parseSummaryCache(await memory.get("w", SUMMARY_KEY));
      // The stored covers stays a group boundary: never a tool result.
      expect(whole[stored?.covers ?? 0]?.getType()).not.toBe("tool");
    }
    expect(reached).toBe(upto);
    expect(parseSummaryCache(await memory.get("w", SUMMARY_KEY))).toMatchObject({ covers: upto });
    const lines = model.inputs.join("\n").split("\n");
    for (let k = 0; k < calls; k++) {
      expect(
        lines.filter((line) => line.endsWith(`: found k${k}`)),
        `k${k}`,
      ).toHaveLength(1);
    }
  });

  it("R7.2 a transcript range read keeps its end in the index condition, even in a generic plan (named prepared statements)", async () => {
    const client = new pg.Client({ connectionString: backend.dsn });
    await client.connect();
    try {
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE transcript_range AS ${SELECT_TRANSCRIPT}`);
      const plan = await client.query<{ "QUERY PLAN": string }>(
        "EXPLAIN (COSTS OFF) EXECUTE transcript_range('a', 't', 90, 100)",
      );
      const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text).toMatch(/Index Cond: .*seq < /);
      expect(text).not.toMatch(/Filter:/);
    } finally {
      await client.end();
    }
  });
});
