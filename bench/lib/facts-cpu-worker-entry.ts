/**
 * A Worker that runs only the facts step of turns (bench/facts-cpu-worker.ts starts it in
 * workerd): POST {threads, facts} where `threads` is a list of threads, each a list of user
 * messages. With `facts: true` each message is one turn's facts work, exactly as the turn
 * does it (agent/turn/fact-recall.ts, heuristic mode): `update` (read and parse the
 * thread's stored facts, retraction cues, extraction, merge, provenance, encode and stage
 * them when they changed) and then `recall` with the message as the question (score and
 * render the facts block). With `facts: false` it walks the same messages and does nothing
 * else: the request's own cost (the body, the loop), subtracted by the bench.
 *
 * → 200 {turns, lines}: the messages seen and the facts lines recalled (so nothing is
 * optimised away).
 */
import { createFactRecallStep } from "../../src/agent/turn/fact-recall.ts";
import { parseMemoryConfig } from "../../src/memory/config.ts";
import type { JsonValue } from "../../src/store/persistent-memory.ts";

const config = parseMemoryConfig({ facts_mode: "heuristic" });

export default {
  async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as { threads: string[][]; facts: boolean };
    let turns = 0;
    let lines = 0;
    for (const [t, thread] of body.threads.entries()) {
      const rows = { thread: {} as Record<string, JsonValue>, agent: {} };
      const step = body.facts
        ? createFactRecallStep({
            config,
            memory: () => rows,
            stage: (key, value) => {
              rows.thread[key] = value;
            },
            now: () => new Date(Date.UTC(2026, 0, 1)),
          })
        : undefined;
      for (const [i, text] of thread.entries()) {
        turns++;
        if (step === undefined) {
          lines += text.length > 0 ? 0 : 1;
          continue;
        }
        await step.update(text, { messageId: `t${t}-m${i}`, position: i * 2 });
        lines += step.recall(text).length;
      }
    }
    return Response.json({ turns, lines });
  },
};
