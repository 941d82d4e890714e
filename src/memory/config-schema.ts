/**
 * The MemoryConfig schema (zod): the seed's snake_case keys, their defaults, and the
 * strict parsers for a whole config and for a partial layer. The precedence of layers is
 * in config.ts; the environment variables are read in config-env.ts.
 */
import { z } from "zod";
import {
  type IssueFormatOptions,
  issuesToFieldErrors,
  memoryConfigError,
  showValue,
} from "./config-issues.ts";

export const MEMORY_BACKENDS = ["off", "in_memory", "postgres", "sqlite"] as const;
export const FACTS_MODES = ["off", "heuristic", "llm"] as const;
export const PROMPT_CONTEXT_MODES = ["legacy_system", "stable_tail"] as const;
/** Where semantic recall's embeddings come from (llm/embeddings.ts). */
export const EMBEDDING_PROVIDERS = ["workers_ai", "openai_compatible"] as const;

export type MemoryBackend = (typeof MEMORY_BACKENDS)[number];
export type FactsMode = (typeof FACTS_MODES)[number];
export type PromptContextMode = (typeof PROMPT_CONTEXT_MODES)[number];
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/**
 * An enum whose error lists the allowed values and, when the value differs only by case
 * or by `-` for `_`, names the right spelling. R1.1: `backend: "in-memory"` → "in_memory"
 * (CLI values use the hyphen; code uses the underscore) — `hyphenNote` says so.
 */
function choice<const T extends readonly [string, ...string[]]>(values: T, hyphenNote = "") {
  return z.enum(values, {
    error: (issue) => {
      const allowed = values.map((value) => `"${value}"`).join(", ");
      const input = issue.input;
      if (typeof input === "string") {
        const fixed = input.trim().toLowerCase().replaceAll("-", "_");
        if ((values as readonly string[]).includes(fixed)) {
          const note = input.includes("-") ? hyphenNote : "";
          return `got ${showValue(input)}; use "${fixed}"${note}`;
        }
      }
      return `must be one of ${allowed}, got ${showValue(input)}`;
    },
  });
}

/**
 * Upper bounds of the whole-number keys that have one, the same in every layer (code, env,
 * registry, run time). `window_size` and `max_history_tokens` size what each turn reads and
 * sends (a window larger than any model's context only costs); the seed cap cannot exceed
 * the items a request may carry (`metadata.history`, seed.ts); `recall_max_items` bounds the
 * "earlier in this conversation" block (each item costs prompt tokens on every call, and the
 * block has its own token budget, memory/recall/prompt-items.ts).
 */
export const MEMORY_CONFIG_MAX = {
  window_size: 1000,
  max_history_tokens: 1_000_000,
  a2a_history_max_messages: 1000,
  recall_max_items: 20,
} as const;

function whole(min: number, max?: number) {
  const range = max === undefined ? `>= ${min}` : `>= ${min} and <= ${max}`;
  const message = (issue: { input?: unknown }) =>
    `must be a whole number ${range}, got ${showValue(issue.input)}`;
  const int = z.int({ error: message }).min(min, { error: message });
  return max === undefined ? int : int.max(max, { error: message });
}

const flag = () =>
  z.boolean({ error: (issue) => `must be true or false, got ${showValue(issue.input)}` });

/** One validator per key, without defaults (shared by the full and the patch schema). */
const field = {
  enabled: flag(),
  backend: choice(
    MEMORY_BACKENDS,
    " (CLI --memory values use the hyphen; code uses the underscore)",
  ),
  postgres_dsn: z
    .string({ error: (issue) => `must be a DSN string, got ${showValue(issue.input)}` })
    .min(1, { error: "must not be empty (leave it out to unset it)" }),
  window_size: whole(1, MEMORY_CONFIG_MAX.window_size),
  history_aware: flag(),
  max_history_tokens: whole(1, MEMORY_CONFIG_MAX.max_history_tokens),
  persist_trim_keep_groups: whole(1),
  summarize: flag(),
  summarize_threshold: whole(1),
  facts_mode: choice(FACTS_MODES),
  fact_recall_max_items: whole(1),
  recall: flag(),
  recall_max_items: whole(1, MEMORY_CONFIG_MAX.recall_max_items),
  recall_semantic: flag(),
  embedding_provider: choice(EMBEDDING_PROVIDERS),
  embedding_model: z
    .string({ error: (issue) => `must be a model name, got ${showValue(issue.input)}` })
    .trim()
    .min(1, { error: "must not be empty (leave it out for the provider's default model)" })
    .max(200, { error: "must be at most 200 characters" }),
  embedding_base_url: z
    .url({
      protocol: /^https?$/,
      error: (issue) =>
        `must be an http(s) URL up to /v1, e.g. https://api.openai.com/v1, got ${showValue(issue.input)}`,
    })
    .max(2000, { error: "must be at most 2000 characters" }),
  prompt_context_mode: choice(PROMPT_CONTEXT_MODES),
  a2a_history_max_messages: whole(0, MEMORY_CONFIG_MAX.a2a_history_max_messages),
} as const;

/** How each Durable Object backend recalls instead (no embeddings there). */
const OBJECT_RECALL: Partial<Record<(typeof MEMORY_BACKENDS)[number], string>> = {
  sqlite: "SQLite FTS5",
  in_memory: "in-memory word scoring",
};

/**
 * A complete MemoryConfig: unknown keys are errors; absent keys take their default; and the
 * keys must fit together (`recall_semantic` only where there are vectors).
 */
export const memoryConfigSchema = z
  .strictObject({
    enabled: field.enabled.default(true),
    backend: field.backend.default("postgres"),
    postgres_dsn: field.postgres_dsn.optional(),
    window_size: field.window_size.default(20),
    history_aware: field.history_aware.default(true),
    max_history_tokens: field.max_history_tokens.optional(),
    persist_trim_keep_groups: field.persist_trim_keep_groups.optional(),
    summarize: field.summarize.default(false),
    summarize_threshold: field.summarize_threshold.default(40),
    facts_mode: field.facts_mode.default("off"),
    fact_recall_max_items: field.fact_recall_max_items.default(3),
    /**
     * Conversation recall: on by default for every backend; it takes effect where
     * the backend gives the turn a recall source (see docs/memory.md), `off` has no history.
     */
    recall: field.recall.default(true),
    recall_max_items: field.recall_max_items.default(5),
    /**
     * Semantic recall: off by default; needs pgvector (migration 0009) and an embedding
     * provider (see docs/memory.md). Lexical recall works without it.
     */
    recall_semantic: field.recall_semantic.default(false),
    embedding_provider: field.embedding_provider.default("workers_ai"),
    embedding_model: field.embedding_model.optional(),
    embedding_base_url: field.embedding_base_url.optional(),
    prompt_context_mode: field.prompt_context_mode.default("legacy_system"),
    a2a_history_max_messages: field.a2a_history_max_messages.default(50),
  })
  .superRefine((config, ctx) => {
    // Semantic recall lives in Postgres (pgvector); an object backend would silently recall by
    // words only, so asking for it there is a mistake worth naming.
    if (config.recall_semantic && OBJECT_RECALL[config.backend] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["recall_semantic"],
        input: config.recall_semantic,
        message: `semantic recall needs the postgres backend (pgvector); backend ${config.backend} recalls by words only (${OBJECT_RECALL[config.backend]}). Set recall_semantic to false, or use backend postgres`,
      });
    }
  });

/**
 * One layer of settings (code, env, registry, run-time PATCH): every key optional, no
 * defaults, unknown keys are errors. For the optional keys (`postgres_dsn`,
 * `max_history_tokens`, `persist_trim_keep_groups`) `null` means "unset it here", so a
 * later layer can switch off a cap that an earlier layer set.
 */
export const memoryConfigPatchSchema = z.strictObject({
  enabled: field.enabled.optional(),
  backend: field.backend.optional(),
  postgres_dsn: field.postgres_dsn.nullable().optional(),
  window_size: field.window_size.optional(),
  history_aware: field.history_aware.optional(),
  max_history_tokens: field.max_history_tokens.nullable().optional(),
  persist_trim_keep_groups: field.persist_trim_keep_groups.nullable().optional(),
  summarize: field.summarize.optional(),
  summarize_threshold: field.summarize_threshold.optional(),
  facts_mode: field.facts_mode.optional(),
  fact_recall_max_items: field.fact_recall_max_items.optional(),
  recall: field.recall.optional(),
  recall_max_items: field.recall_max_items.optional(),
  recall_semantic: field.recall_semantic.optional(),
  embedding_provider: field.embedding_provider.optional(),
  embedding_model: field.embedding_model.nullable().optional(),
  embedding_base_url: field.embedding_base_url.nullable().optional(),
  prompt_context_mode: field.prompt_context_mode.optional(),
  a2a_history_max_messages: field.a2a_history_max_messages.optional(),
});

/** Keys only the deploy-time layers (code, env, registry) may set: where data is stored. */
export const DEPLOY_TIME_CONFIG_KEYS = ["backend", "postgres_dsn"] as const;

/**
 * The run-time layer (`PATCH /api/v1/memory/config`, and the layer it stored): exactly the
 * keys that may change while running, strict. A deploy-time key is an error there, like any
 * other key outside the schema (`__proto__`, `constructor`, misspellings).
 */
export const memoryConfigRuntimeSchema = memoryConfigPatchSchema.omit({
  backend: true,
  postgres_dsn: true,
});

export type MemoryConfig = z.output<typeof memoryConfigSchema>;
/** What a caller may write: every key optional (defaults fill the rest). */
export type MemoryConfigInput = z.input<typeof memoryConfigSchema>;
export type MemoryConfigPatch = z.output<typeof memoryConfigPatchSchema>;
export type MemoryConfigRuntimePatch = z.output<typeof memoryConfigRuntimeSchema>;
export type MemoryConfigKey = keyof MemoryConfig;
export type MemoryConfigRuntimeKey = keyof MemoryConfigRuntimePatch;

export const MEMORY_CONFIG_KEYS = Object.keys(memoryConfigSchema.shape) as MemoryConfigKey[];
export const RUNTIME_CONFIG_KEYS = Object.keys(
  memoryConfigRuntimeSchema.shape,
) as MemoryConfigRuntimeKey[];

/** The defaults of every key that has one (the optional keys are unset by default). */
export const MEMORY_CONFIG_DEFAULTS: Readonly<MemoryConfig> = Object.freeze(
  memoryConfigSchema.parse({}),
);

/**
 * Environment variables → MemoryConfig keys (SPEC names). Read by config-env.ts; also used
 * to suggest the key when someone writes the variable name inside a config object.
 */
export const MEMORY_ENV_VARS = {
  MEMORY_ENABLED: "enabled",
  MEMORY_BACKEND: "backend",
  POSTGRES_MEMORY_DSN: "postgres_dsn",
  MEMORY_WINDOW_SIZE: "window_size",
  MEMORY_HISTORY_AWARE: "history_aware",
  MAX_HISTORY_TOKENS: "max_history_tokens",
  MEMORY_PERSIST_TRIM_KEEP_GROUPS: "persist_trim_keep_groups",
  MEMORY_SUMMARIZE: "summarize",
  MEMORY_SUMMARIZE_THRESHOLD: "summarize_threshold",
  MEMORY_FACTS_MODE: "facts_mode",
  MEMORY_FACT_RECALL_MAX_ITEMS: "fact_recall_max_items",
  MEMORY_RECALL: "recall",
  MEMORY_RECALL_MAX_ITEMS: "recall_max_items",
  MEMORY_RECALL_SEMANTIC: "recall_semantic",
  MEMORY_EMBEDDING_PROVIDER: "embedding_provider",
  MEMORY_EMBEDDING_MODEL: "embedding_model",
  MEMORY_EMBEDDING_BASE_URL: "embedding_base_url",
  LLAMON_PROMPT_CONTEXT_MODE: "prompt_context_mode",
  A2A_HISTORY_MAX_MESSAGES: "a2a_history_max_messages",
} as const satisfies Record<string, MemoryConfigKey>;

export type MemoryEnvVar = keyof typeof MEMORY_ENV_VARS;

function check<S extends z.ZodType>(
  schema: S,
  input: unknown,
  source: string,
  options: IssueFormatOptions = { knownKeys: MEMORY_CONFIG_KEYS, aliases: MEMORY_ENV_VARS },
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw memoryConfigError(issuesToFieldErrors(result.error.issues, options), source);
}

/** The env variable of a key (`backend` → `MEMORY_BACKEND`). */
function variableOf(key: MemoryConfigKey): string {
  const found = Object.entries(MEMORY_ENV_VARS).find(([, k]) => k === key);
  return found?.[0] ?? key;
}

const RUNTIME_FORMAT: IssueFormatOptions = {
  knownKeys: RUNTIME_CONFIG_KEYS,
  aliases: MEMORY_ENV_VARS,
  keyLine: (key) =>
    (DEPLOY_TIME_CONFIG_KEYS as readonly string[]).includes(key)
      ? `cannot be changed at run time: it decides where conversations are stored; set it in code, env (${variableOf(key as MemoryConfigKey)}) or the registry and deploy`
      : undefined,
};

/**
 * Validates a complete MemoryConfig and fills defaults. Throws
 * `LlamonError("CONFIG_INVALID")` with `details: { fieldErrors, source }` and one line per
 * problem in the message.
 */
export function parseMemoryConfig(input: unknown, source = "code"): MemoryConfig {
  return check(memoryConfigSchema, input ?? {}, source);
}

/** Validates one partial layer (see {@link memoryConfigPatchSchema}); same errors. */
export function parseMemoryConfigPatch(input: unknown, source = "code"): MemoryConfigPatch {
  return check(memoryConfigPatchSchema, input ?? {}, source);
}

/**
 * Validates the run-time layer (see {@link memoryConfigRuntimeSchema}): the body of a PATCH,
 * or the layer as stored. Same errors; a deploy-time key says where to set it instead.
 */
export function parseRuntimeConfigPatch(
  input: unknown,
  source = "runtime",
): MemoryConfigRuntimePatch {
  return check(memoryConfigRuntimeSchema, input ?? {}, source, RUNTIME_FORMAT);
}
