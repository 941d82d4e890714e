import { describe, expect, it } from "vitest";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import {
  createOpenAiEmbedder,
  createWorkersAiEmbedder,
  embedderFromEnv,
} from "../../../src/llm/embeddings.ts";

function answering(body: unknown, seen: unknown[] = []) {
  return async (_url: string, init: RequestInit) => {
    seen.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(body), { status: 200 });
  };
}

async function failure(promise: Promise<unknown>): Promise<LlamonError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("did not fail");
  return error as LlamonError;
}

describe("embeddings for semantic recall", () => {
  it("openai_compatible: one vector per text, in input order, key sent and named by provider:model", async () => {
    const seen: unknown[] = [];
    const embedder = createOpenAiEmbedder({
      baseUrl: "http://localhost:9/v1/",
      model: "m",
      apiKey: "k",
      fetch: answering(
        {
          data: [
            { index: 1, embedding: [0, 1] },
            { index: 0, embedding: [1, 0] },
          ],
        },
        seen,
      ),
    });
    expect(embedder.model).toBe("openai_compatible:m");
    expect(await embedder.embed(["a", "b"])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(seen).toEqual([{ model: "m", input: ["a", "b"] }]);
  });

  it("a malformed or short answer is MODEL_FAILED, not a wrong vector", async () => {
    const short = createOpenAiEmbedder({
      baseUrl: "http://x/v1",
      model: "m",
      fetch: answering({ data: [{ index: 0, embedding: [1] }] }),
    });
    expect(isLlamonError(await failure(short.embed(["a", "b"])), "MODEL_FAILED")).toBe(true);
    const junk = createOpenAiEmbedder({
      baseUrl: "http://x/v1",
      model: "m",
      fetch: answering({ data: [{ index: 0, embedding: ["x"] }] }),
    });
    expect(isLlamonError(await failure(junk.embed(["a"])), "MODEL_FAILED")).toBe(true);
    const ai = createWorkersAiEmbedder({
      binding: { run: async () => ({ data: [[1, 2], [3]] }) },
      model: "@cf/baai/bge-m3",
    });
    expect(isLlamonError(await failure(ai.embed(["a", "b"])), "MODEL_FAILED")).toBe(true);
  });

  it("workers_ai: AI.run(model, { text })", async () => {
    const calls: unknown[] = [];
    const embedder = createWorkersAiEmbedder({
      binding: {
        run: async (model, input) => {
          calls.push([model, input]);
          return { shape: [1, 2], data: [[0.5, 0.5]] };
        },
      },
      model: "@cf/baai/bge-m3",
    });
    expect(await embedder.embed(["안녕"])).toEqual([[0.5, 0.5]]);
    expect(calls).toEqual([["@cf/baai/bge-m3", { text: ["안녕"] }]]);
  });

  it("a provider that cannot be reached from the env is CONFIG_INVALID naming the fix", () => {
    const noBinding = (() => {
      try {
        embedderFromEnv({ embedding_provider: "workers_ai" }, {});
      } catch (error) {
        return error as LlamonError;
      }
    })();
    expect(isLlamonError(noBinding, "CONFIG_INVALID")).toBe(true);
    expect(noBinding?.message).toContain('[ai] binding = "AI"');
    expect(() => embedderFromEnv({ embedding_provider: "openai_compatible" }, {})).toThrow(
      /embedding_base_url/,
    );
    const fromEnv = embedderFromEnv(
      { embedding_provider: "openai_compatible", embedding_base_url: "http://x/v1" },
      { EMBEDDING_API_KEY: " k " },
    );
    expect(fromEnv.model).toBe("openai_compatible:text-embedding-3-small");
    expect(
      embedderFromEnv({ embedding_provider: "workers_ai" }, { AI: { run: async () => ({}) } })
        .model,
    ).toBe("workers_ai:@cf/baai/bge-m3");
  });
});
