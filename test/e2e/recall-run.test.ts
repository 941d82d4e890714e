/**
 * Conversation recall end to end through `llamon run .` (embedded Postgres, the
 * Neon-protocol proxy, `wrangler dev`): 60 turns, then a question about turn 3. The offline
 * model's answer echoes the recalled-messages block it was sent, so the test sees that the
 * turn-3 message, long out of the window, was in the prompt.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  freePort,
  sendMessage,
  startReferenceAgent,
  stopLlamonRun,
} from "../helpers/llamon-run.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const TURN_3 = "My sister Yuna plays the cello in an orchestra";

describe("llamon run . — conversation recall", () => {
  it("after 60 turns a question about turn 3 gets turn 3's message in the prompt", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llamon-recall-"));
    dirs.push(dataDir);
    const port = await freePort();
    const run = await startReferenceAgent(port, dataDir);
    try {
      for (let turn = 1; turn <= 60; turn++) {
        await sendMessage(port, "recall-e2e", turn === 3 ? TURN_3 : `filler ${turn}`);
      }
      const answer = await sendMessage(port, "recall-e2e", "Which instrument does Yuna play?");
      const lines = answer.split("\n");
      // Only the window was sent as messages: turn 3 is far outside it.
      expect(lines[0]).toMatch(/^offline-model: received=\d+ has_prior=true$/);
      expect(Number(/received=(\d+)/.exec(lines[0] ?? "")?.[1])).toBeLessThan(60);
      expect(lines.find((l) => l.startsWith("recalled: "))).toContain(`user: "${TURN_3}"`);
    } catch (err) {
      // The agent's own log says why a turn failed; the JSON-RPC error only says "internal".
      throw new Error(
        `${String(err)}\n--- llamon run output (tail) ---\n${run.output().slice(-8000)}`,
      );
    } finally {
      await stopLlamonRun(run.child);
    }
  }, 180_000);
});
