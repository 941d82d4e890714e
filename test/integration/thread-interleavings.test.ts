/**
 * Random interleavings of everything that reads or writes one conversation on Postgres (issue
 * 32): turns, resends of earlier messageIds at any distance, erase, prune and summary jobs,
 * run a few at a time concurrently, as a Worker's requests and its queue consumer would. After
 * each run, three invariants are checked against the database:
 *
 * - R11.2 each messageId is stored once;
 * - R11.1 nothing of a message whose last send ended before an erase (or prune) began is
 *   reachable afterwards — in any table, the summary included;
 * - R2.4 no turn is lost: every send that began after the last erase ended is stored.
 *
 * A logical clock orders the events: an operation's start and end are ticks of it.
 */
import type { BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/run-turn.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { summarizeInPostgres } from "../../src/queue/host.ts";
import { readThreadHead } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { applyPrune, planPrune } from "../../src/store/prune.ts";
import { NEON_STYLE_DSN } from "../helpers/backend.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Interleavings agent");
const AGENT = "interleave";

type Op =
  | { readonly kind: "send" }
  | { readonly kind: "resend"; readonly back: number }
  | { readonly kind: "erase" }
  | { readonly kind: "prune" }
  | { readonly kind: "summary" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Op>({ kind: "send" }) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 1, max: 12 }).map<Op>((back) => ({ kind: "resend", back })),
  },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "erase" }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: "prune" }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: "summary" }) },
);
/** Groups of operations; the operations of one group run at once. */
const scheduleArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), {
  minLength: 6,
  maxLength: 12,
});

interface Span {
  readonly start: number;
  end: number;
  ok: boolean;
}

function deps(): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: 2 } }).config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId: AGENT, guardHead: true }),
  };
}

/** The stored conversation: transcript, then the head's live tail. */
async function storedThread(threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId: AGENT });
  const head = await readThreadHead(saver, { configurable: { thread_id: threadId } });
  const older = head.offset > 0 ? await saver.readTranscript(threadId, 0, head.offset) : [];
  return [...older, ...head.messages];
}

/** Tables (and which) whose rows of the thread contain `needle`. */
async function tablesContaining(threadId: string, needle: string): Promise<string[]> {
  const { rows } = await backend.pg.query<{ source: string }>(
    `SELECT 'checkpoint_blobs' AS source FROM checkpoint_blobs
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'checkpoint_writes' FROM checkpoint_writes
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'llamon_messages' FROM llamon_messages
      WHERE agent_id = $2 AND thread_id = $4 AND message::text LIKE $3
     UNION ALL SELECT 'persistent_memory' FROM persistent_memory
      WHERE agent_id = $2 AND thread_id = $4 AND value::text LIKE $3`,
    [`${AGENT}:${threadId}`, AGENT, `%${needle}%`, threadId],
  );
  return rows.map((r) => r.source);
}

async function runSchedule(run: number, schedule: readonly (readonly Op[])[]) {
  const threadId = `run-${run}`;
  let clock = 0;
  const tick = () => ++clock;
  /** Sends per message index (the original and its resends). */
  const sends = new Map<number, Span[]>();
  const erases: Span[] = [];
  let sent = 0;
  const marker = (i: number) => `mark${run}x${i}z`;
  const messageId = (i: number) => `mid-${run}-${i}`;
  const timed = async (spans: Span[], work: () => Promise<unknown>) => {
    const span: Span = { start: tick(), end: 0, ok: false };
    spans.push(span);
    try {
      await work();
      span.ok = true;
    } finally {
      span.end = tick();
    }
  };
  const send = (i: number) => {
    const spans = sends.get(i) ?? [];
    sends.set(i, spans);
    return timed(spans, () =>
      runTurn(deps(), { threadId, messageId: messageId(i), text: `remember ${marker(i)} please` }),
    );
  };
  const env = {
    AGENT_ID: AGENT,
    POSTGRES_MEMORY_DSN: NEON_STYLE_DSN,
    LLAMON_NEON_FETCH_ENDPOINT: backend.proxy.url,
  };
  const operation = (op: Op): Promise<unknown> => {
    switch (op.kind) {
      case "send":
        sent += 1;
        return send(sent - 1);
      case "resend":
        return sent === 0 ? Promise.resolve() : send(Math.max(0, sent - op.back));
      case "erase":
        return timed(erases, () =>
          new NeonSaver({ db: backend.neon, agentId: AGENT }).deleteThread(threadId),
        );
      case "prune":
        return timed(erases, async () => {
          const plan = await planPrune(backend.pg, { agentId: AGENT, threadIds: [threadId] });
          await applyPrune(backend.pg, plan);
        });
      case "summary":
        return summarizeInPostgres(
          env,
          { type: "summarize", agent_id: AGENT, thread_id: threadId, upto: 2 + 2 * sent },
          { model: new OfflineChatModel(), log: createMemoryLogger() },
        ).catch(() => undefined);
    }
  };
  for (const group of schedule) await Promise.all(group.map(operation));

  const thread = await storedThread(threadId);
  const userIds = thread.filter((m) => m.getType() === "human").map((m) => String(m.id));
  // R11.2: each messageId once.
  expect(new Set(userIds).size, `duplicated ids in ${userIds.join(",")}`).toBe(userIds.length);
  const lastEraseEnd = Math.max(0, ...erases.map((e) => e.end));
  for (const [i, spans] of sends) {
    const lastEnd = Math.max(...spans.map((s) => s.end));
    if (erases.some((e) => e.start > lastEnd)) {
      // R11.1: forgotten everywhere.
      expect(userIds, `message ${i} was erased`).not.toContain(messageId(i));
      expect(await tablesContaining(threadId, marker(i)), `message ${i} was erased`).toEqual([]);
    }
    if (spans.some((s) => s.ok && s.start > lastEraseEnd)) {
      // R2.4: not lost.
      expect(userIds, `message ${i} was answered after the last erase`).toContain(messageId(i));
    }
  }
}

describe("random interleavings of turns, resends, erase, prune and summaries (postgres)", () => {
  it("R11.1 R11.2 R2.4 each messageId once, nothing from before an erase, no turn lost", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (schedule) => {
        run += 1;
        await runSchedule(run, schedule);
      }),
      { numRuns: 25, seed: 3201, endOnFailure: true },
    );
  }, 240_000);
});
