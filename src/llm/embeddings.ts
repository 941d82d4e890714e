/**
 * Text embeddings for optional semantic recall (memory config `recall_semantic`): one
 * {@link Embedder} per provider, chosen by the memory config's `embedding_*` keys.
 *
 * - `workers_ai`: the Worker's AI binding, `env.AI.run(model, { text: [...] })` → `{ data }`
 *   (default model `@cf/baai/bge-m3`, multilingual, 1024 dimensions);
 * - `openai_compatible`: `POST {embedding_base_url}/embeddings` `{ model, input }` →
 *   `{ data: [{ index, embedding }] }` (OpenAI, Ollama, vLLM, …), key from the secret
 *   `EMBEDDING_API_KEY` (falls back to `OPENAI_API_KEY`; local servers need none).
 *
 * Every answer is validated (zod): one finite vector per input, all of one dimension.
 * `Embedder.model` names provider and model; stored vectors are compared only with vectors of
 * the same name (migration 0009).
 */
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { type FetchLike, MODEL_FAILURE_CODE, postJson } from "./http.ts";
import type { WorkersAIBinding } from "./workers-ai.ts";

export const EMBEDDING_PROVIDERS = ["workers_ai", "openai_compatible"] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];

export const DEFAULT_EMBEDDING_MODEL: Readonly<Record<EmbeddingProvider, string>> = {
  workers_ai: "@cf/baai/bge-m3",
  openai_compatible: "text-embedding-3-small",
};

/** Texts per provider call (the job and the backfill send at most this many at once). */
export const MAX_EMBED_BATCH = 32;
/** Characters of one text sent to the provider. */
export const MAX_EMBED_CHARS = 2000;
const DEFAULT_EMBED_TIMEOUT_MS = 10_000;

export interface Embedder {
  /** `provider:model`: the name stored vectors are kept under. */
  readonly model: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface EmbeddingSettings {
  readonly embedding_provider: EmbeddingProvider;
  readonly embedding_model?: string | undefined;
  readonly embedding_base_url?: string | undefined;
}

const vectorSchema = z.array(z.number().finite()).min(1).max(16_384);
const openAiAnswer = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: vectorSchema })),
});
const workersAiAnswer = z.object({ data: z.array(vectorSchema) });

function checked(provider: string, count: number, vectors: number[][]): number[][] {
  const dims = vectors[0]?.length;
  if (vectors.length !== count || vectors.some((v) => v.length !== dims)) {
    throw new LlamonError(
      MODEL_FAILURE_CODE,
      `${provider}: the embeddings answer has ${vectors.length} vectors for ${count} texts, or vectors of different lengths`,
      { details: { provider, reason: "bad_response", retryable: false } },
    );
  }
  return vectors;
}

function badAnswer(provider: string, error: z.ZodError): LlamonError {
  return new LlamonError(
    MODEL_FAILURE_CODE,
    `${provider}: the embeddings answer is not { data: [...] } with one vector of numbers per text: ${error.issues[0]?.message ?? "invalid"}`,
    { details: { provider, reason: "bad_response", retryable: false } },
  );
}

export function createOpenAiEmbedder(options: {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
  fetch?: FetchLike | undefined;
}): Embedder {
  const provider = "openai_compatible embeddings";
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  return {
    model: `openai_compatible:${options.model}`,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const answer = await postJson({
        provider,
        url,
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: { model: options.model, input: texts.map((t) => t.slice(0, MAX_EMBED_CHARS)) },
        apiKey: options.apiKey,
        apiKeyEnvVar: "EMBEDDING_API_KEY",
        baseUrlEnvVar: "embedding_base_url (MEMORY_EMBEDDING_BASE_URL)",
        model: options.model,
        timeoutMs: options.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS,
        signal,
        fetch: options.fetch,
      });
      const parsed = openAiAnswer.safeParse(answer);
      if (!parsed.success) throw badAnswer(provider, parsed.error);
      const vectors = [...parsed.data.data].sort((a, b) => a.index - b.index);
      return checked(
        provider,
        texts.length,
        vectors.map((d) => d.embedding),
      );
    },
  };
}

export function createWorkersAiEmbedder(options: {
  binding: WorkersAIBinding;
  model: string;
}): Embedder {
  const provider = "workers_ai embeddings";
  return {
    model: `workers_ai:${options.model}`,
    async embed(texts) {
      if (texts.length === 0) return [];
      let answer: unknown;
      try {
        answer = await options.binding.run(options.model, {
          text: texts.map((t) => t.slice(0, MAX_EMBED_CHARS)),
        });
      } catch (error) {
        throw new LlamonError(
          MODEL_FAILURE_CODE,
          `${provider}: AI.run(${options.model}) failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error, details: { provider, reason: "unavailable", retryable: true } },
        );
      }
      const parsed = workersAiAnswer.safeParse(answer);
      if (!parsed.success) throw badAnswer(provider, parsed.error);
      return checked(provider, texts.length, parsed.data.data);
    },
  };
}

/**
 * The embedder the memory config asks for, from the Worker's env (the `AI` binding,
 * `EMBEDDING_API_KEY`). CONFIG_INVALID naming the fix when the provider cannot be reached.
 */
export function embedderFromEnv(
  settings: EmbeddingSettings,
  env: Readonly<Record<string, unknown>>,
  fetchImpl?: FetchLike,
): Embedder {
  const model = settings.embedding_model ?? DEFAULT_EMBEDDING_MODEL[settings.embedding_provider];
  if (settings.embedding_provider === "workers_ai") {
    const binding = env.AI as Partial<WorkersAIBinding> | undefined;
    if (typeof binding?.run !== "function") {
      throw new LlamonError(
        "CONFIG_INVALID",
        'recall_semantic with embedding_provider workers_ai needs the Workers AI binding: add `[ai] binding = "AI"` to wrangler.toml, or set embedding_provider to openai_compatible with embedding_base_url',
        { details: { field: "embedding_provider" } },
      );
    }
    return createWorkersAiEmbedder({ binding: binding as WorkersAIBinding, model });
  }
  if (settings.embedding_base_url === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "recall_semantic with embedding_provider openai_compatible needs embedding_base_url (MEMORY_EMBEDDING_BASE_URL), e.g. https://api.openai.com/v1 or http://localhost:11434/v1",
      { details: { field: "embedding_base_url" } },
    );
  }
  const key = [env.EMBEDDING_API_KEY, env.OPENAI_API_KEY].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  return createOpenAiEmbedder({
    baseUrl: settings.embedding_base_url,
    model,
    apiKey: key?.trim(),
    fetch: fetchImpl,
  });
}
