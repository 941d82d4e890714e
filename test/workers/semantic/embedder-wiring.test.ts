/**
 * Semantic recall as a deployed Worker wires it (workerd, the Worker's fetch handler): the
 * env's MEMORY_RECALL_SEMANTIC / MEMORY_EMBEDDING_* select the OpenAI-compatible embedder,
 * each turn's background work (ctx.waitUntil) embeds the transcript into pgvector, and a
 * paraphrase that shares no index term with an old message brings it back into the prompt.
 * The same conversation with semantic recall off does not; a provider without a base URL is
 * a configuration error the caller sees as "misconfigured", and nothing is stored.
 * Runs in the `workers-semantic` project: PGlite with pgvector behind the Neon proxy, and the
 * deterministic embeddings server (test/helpers/fake-embeddings.ts).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type Instance, instance, send } from "../auth-helpers.ts";

const PUPPY = "My puppy is called Biscuit";
const QUESTION = "What name did I give my dog?";

function semanticVars(extra: Record<string, string> = {}): Record<string, string> {
  return {
    AGENT_ID: `sem-${crypto.randomUUID().slice(0, 8)}`,
    MEMORY_WINDOW_SIZE: "6",
    MEMORY_RECALL_SEMANTIC: "true",
    MEMORY_EMBEDDING_PROVIDER: "openai_compatible",
    MEMORY_EMBEDDING_BASE_URL: env.TEST_EMBEDDINGS_URL,
    MEMORY_EMBEDDING_MODEL: "concepts",
    ...extra,
  };
}

/** One turn, then its background work (the embedding of what it stored). */
async function say(worker: Instance, contextId: string, text: string) {
  const answer = await worker.rpc(send(contextId, text));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined();
  await worker.settled();
  return answer;
}

/** The puppy's name, then enough small talk that it leaves the window of 6. */
async function conversation(worker: Instance, contextId: string) {
  await say(worker, contextId, "Good morning, how is the weather today?");
  await say(worker, contextId, PUPPY);
  for (let i = 0; i < 8; i++) {
    await say(worker, contextId, `Small talk ${i}: lunch plans and the traffic downtown`);
  }
}

/** The offline model's `recalled:` line: what the prompt quoted from earlier turns. */
function recalledLine(replyText: string): string {
  return replyText.split("\n").find((line) => line.startsWith("recalled:")) ?? "";
}

describe("semantic recall through the Worker (env-selected embedder, pgvector)", () => {
  it("a paraphrase with no shared word recalls the old message", async () => {
    const worker = instance(semanticVars());
    const contextId = `dog-${crypto.randomUUID()}`;
    await conversation(worker, contextId);
    const answer = await say(worker, contextId, QUESTION);
    expect(recalledLine(answer.replyText)).toContain("Biscuit");
  });

  it("with semantic recall off, the same paraphrase finds nothing (words only)", async () => {
    const worker = instance(semanticVars({ MEMORY_RECALL_SEMANTIC: "false" }));
    const contextId = `dog-${crypto.randomUUID()}`;
    await conversation(worker, contextId);
    const answer = await say(worker, contextId, QUESTION);
    expect(answer.replyText).not.toContain("Biscuit");
  });

  it("openai_compatible without a base URL: the caller is told the agent is misconfigured, nothing is stored", async () => {
    const vars = semanticVars();
    delete vars.MEMORY_EMBEDDING_BASE_URL;
    const worker = instance(vars);
    const contextId = `dog-${crypto.randomUUID()}`;
    const answer = await worker.rpc(send(contextId, PUPPY));
    const error = answer.body.error as { message?: string } | undefined;
    expect(error?.message, JSON.stringify(answer.body)).toMatch(/misconfigured/);
    await worker.settled();
    const stored = await worker.fetch(
      `https://agent.example/api/v1/memory/threads/${encodeURIComponent(contextId)}`,
      { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    );
    expect(stored.status).toBe(404);
  });
});
