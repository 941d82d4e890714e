import { describe, expect, it } from "vitest";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import {
  MEMORY_CONFIG_DEFAULTS,
  MEMORY_CONFIG_KEYS,
  MEMORY_ENV_VARS,
  type MemoryConfigErrorDetails,
  memoryConfigFromEnv,
  memoryConfigPatchSchema,
  parseMemoryConfig,
  parseMemoryConfigPatch,
  resolveMemoryConfig,
  summaryPeriod,
} from "../../../src/memory/config.ts";

/** Runs `fn`, expects a CONFIG_INVALID LlamonError and returns it. */
function configError(fn: () => unknown): LlamonError<MemoryConfigErrorDetails> {
  try {
    fn();
  } catch (error) {
    expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
    return error as LlamonError<MemoryConfigErrorDetails>;
  }
  throw new Error("expected a CONFIG_INVALID error");
}

describe("MemoryConfig defaults", () => {
  it("fills the seed's defaults for an empty config", () => {
    expect(parseMemoryConfig({})).toEqual({
      enabled: true,
      backend: "postgres",
      window_size: 20,
      history_aware: true,
      summarize: false,
      summarize_threshold: 40,
      facts_mode: "off",
      fact_recall_max_items: 3,
      recall: true,
      recall_max_items: 5,
      recall_semantic: false,
      embedding_provider: "workers_ai",
      prompt_context_mode: "legacy_system",
      a2a_history_max_messages: 50,
    });
    expect(MEMORY_CONFIG_DEFAULTS.window_size).toBe(20);
    expect(parseMemoryConfig(undefined)).toEqual(parseMemoryConfig({}));
  });

  it("R1 accepts the four backends in code spelling", () => {
    for (const backend of ["off", "in_memory", "postgres", "sqlite"] as const) {
      expect(parseMemoryConfig({ backend }).backend).toBe(backend);
    }
  });

  it("keeps the seed's MemoryConfig example as written", () => {
    const config = parseMemoryConfig({
      enabled: true,
      backend: "postgres",
      postgres_dsn: "postgresql://user:password@db-host:5432/my_agent_memory",
      window_size: 20,
      summarize: true,
      summarize_threshold: 40,
    });
    expect(config.postgres_dsn).toContain("my_agent_memory");
    expect(config.summarize).toBe(true);
  });
});

describe("MemoryConfig validation", () => {
  it('R1.1 backend "in-memory" in code is an error naming in_memory', () => {
    const error = configError(() => parseMemoryConfig({ backend: "in-memory" }));
    expect(error.message).toContain('"in_memory"');
    expect(error.details.fieldErrors.backend?.[0]).toContain("in_memory");
    expect(error.details.source).toBe("code");
  });

  it("rejects unknown keys and suggests the close known key", () => {
    const cases: [string, string][] = [
      ["windowSize", "window_size"],
      ["window-size", "window_size"],
      ["summarise", "summarize"],
      ["maxHistoryTokens", "max_history_tokens"],
      ["MEMORY_WINDOW_SIZE", "window_size"],
      ["POSTGRES_MEMORY_DSN", "postgres_dsn"],
    ];
    for (const [wrong, right] of cases) {
      const error = configError(() => parseMemoryConfig({ [wrong]: 1 }, "registry"));
      expect(error.details.fieldErrors[wrong]).toEqual([`unknown key; did you mean "${right}"?`]);
      expect(error.message).toContain(wrong);
      expect(error.details.source).toBe("registry");
    }
    const far = configError(() => parseMemoryConfig({ colour: "blue" }));
    expect(far.details.fieldErrors.colour?.[0]).toMatch(/^unknown key; known keys are enabled/);
  });

  it("reports every problem on its own line", () => {
    const error = configError(() =>
      parseMemoryConfig({ window_size: 0, facts_mode: "smart", enabled: "yes", windowSize: 3 }),
    );
    expect(Object.keys(error.details.fieldErrors).sort()).toEqual([
      "enabled",
      "facts_mode",
      "windowSize",
      "window_size",
    ]);
    expect(error.message.split("\n")).toHaveLength(5);
    expect(error.details.fieldErrors.window_size?.[0]).toContain(">= 1");
    expect(error.details.fieldErrors.facts_mode?.[0]).toContain('"heuristic"');
  });

  it("rejects non-integers and accepts a2a_history_max_messages 0", () => {
    configError(() => parseMemoryConfig({ window_size: 2.5 }));
    configError(() => parseMemoryConfig({ window_size: "20" }));
    expect(parseMemoryConfig({ a2a_history_max_messages: 0 }).a2a_history_max_messages).toBe(0);
    configError(() => parseMemoryConfig({ a2a_history_max_messages: -1 }));
  });

  it("rejects a value that is not an object", () => {
    const error = configError(() => parseMemoryConfig("postgres"));
    expect(error.details.fieldErrors["(root)"]?.[0]).toContain("object");
  });

  it("patch schema: all keys optional, no defaults, strict, null unsets optional keys", () => {
    expect(parseMemoryConfigPatch({})).toEqual({});
    expect(parseMemoryConfigPatch({ max_history_tokens: null })).toEqual({
      max_history_tokens: null,
    });
    expect(memoryConfigPatchSchema.safeParse({ window_size: null }).success).toBe(false);
    const error = configError(() => parseMemoryConfigPatch({ summarise: true }, "runtime"));
    expect(error.details.fieldErrors.summarise).toEqual(['unknown key; did you mean "summarize"?']);
  });
});

describe("MemoryConfig from the environment", () => {
  it("maps every SPEC variable to its key", () => {
    const patch = memoryConfigFromEnv({
      MEMORY_ENABLED: "false",
      MEMORY_BACKEND: "sqlite",
      POSTGRES_MEMORY_DSN: "postgresql://u@localhost/x",
      MEMORY_WINDOW_SIZE: "12",
      MEMORY_HISTORY_AWARE: "0",
      MAX_HISTORY_TOKENS: "4000",
      MEMORY_PERSIST_TRIM_KEEP_GROUPS: "30",
      MEMORY_SUMMARIZE: "TRUE",
      MEMORY_SUMMARIZE_THRESHOLD: "60",
      MEMORY_FACTS_MODE: "heuristic",
      MEMORY_FACT_RECALL_MAX_ITEMS: "5",
      MEMORY_RECALL: "false",
      MEMORY_RECALL_MAX_ITEMS: "8",
      MEMORY_RECALL_SEMANTIC: "1",
      MEMORY_EMBEDDING_PROVIDER: "openai_compatible",
      MEMORY_EMBEDDING_MODEL: "nomic-embed-text",
      MEMORY_EMBEDDING_BASE_URL: "http://localhost:11434/v1",
      LLAMON_PROMPT_CONTEXT_MODE: "stable_tail",
      A2A_HISTORY_MAX_MESSAGES: "0",
      UNRELATED: "ignored",
    });
    expect(patch).toEqual({
      enabled: false,
      backend: "sqlite",
      postgres_dsn: "postgresql://u@localhost/x",
      window_size: 12,
      history_aware: false,
      max_history_tokens: 4000,
      persist_trim_keep_groups: 30,
      summarize: true,
      summarize_threshold: 60,
      facts_mode: "heuristic",
      fact_recall_max_items: 5,
      recall: false,
      recall_max_items: 8,
      recall_semantic: true,
      embedding_provider: "openai_compatible",
      embedding_model: "nomic-embed-text",
      embedding_base_url: "http://localhost:11434/v1",
      prompt_context_mode: "stable_tail",
      a2a_history_max_messages: 0,
    });
    expect(Object.keys(MEMORY_ENV_VARS)).toHaveLength(MEMORY_CONFIG_KEYS.length);
  });

  it("semantic recall's keys: off by default, bad values are specific errors", () => {
    expect(parseMemoryConfig({ recall_semantic: true }).embedding_provider).toBe("workers_ai");
    const bad = (input: unknown): string => {
      try {
        parseMemoryConfig(input);
      } catch (error) {
        expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
        return (error as LlamonError).message;
      }
      throw new Error("accepted");
    };
    expect(bad({ embedding_provider: "openai-compatible" })).toContain('use "openai_compatible"');
    expect(bad({ embedding_provider: "cohere" })).toContain('"workers_ai", "openai_compatible"');
    expect(bad({ embedding_base_url: "ftp://x/v1" })).toContain("http(s) URL");
    expect(bad({ embedding_model: " " })).toContain("must not be empty");
    expect(bad({ recall_semantic: "yes" })).toContain("true or false");
    // The object backends have no vectors: asking for semantic recall there is refused.
    expect(bad({ backend: "sqlite", recall_semantic: true })).toContain(
      "recall_semantic: semantic recall needs the postgres backend (pgvector); backend sqlite recalls by words only (SQLite FTS5)",
    );
    expect(bad({ backend: "in_memory", recall_semantic: true })).toContain("in-memory word");
    expect(parseMemoryConfig({ backend: "sqlite", recall_semantic: false }).backend).toBe("sqlite");
    expect(parseMemoryConfig({ backend: "off", recall_semantic: true }).recall_semantic).toBe(true);
    const layered = configError(() =>
      resolveMemoryConfig({
        env: { MEMORY_BACKEND: "in-memory" },
        runtime: { recall_semantic: true },
      }),
    );
    expect(Object.keys(layered.details.fieldErrors)).toEqual(["recall_semantic"]);
    expect(() => memoryConfigFromEnv({ MEMORY_RECALL_SEMANTIC: "maybe" })).toThrow(
      /MEMORY_RECALL_SEMANTIC/,
    );
  });

  it("R1.1 MEMORY_BACKEND accepts the CLI spelling in-memory as in_memory", () => {
    expect(memoryConfigFromEnv({ MEMORY_BACKEND: "in-memory" })).toEqual({ backend: "in_memory" });
    expect(memoryConfigFromEnv({ MEMORY_BACKEND: "in_memory" })).toEqual({ backend: "in_memory" });
  });

  it("treats empty values as unset and takes wrangler JSON vars as they are", () => {
    expect(memoryConfigFromEnv({ MEMORY_WINDOW_SIZE: "", MEMORY_SUMMARIZE: "  " })).toEqual({});
    expect(memoryConfigFromEnv({ MEMORY_WINDOW_SIZE: 8, MEMORY_SUMMARIZE: true })).toEqual({
      window_size: 8,
      summarize: true,
    });
  });

  it("R3.1 a bad integer is an error naming the variable", () => {
    for (const bad of ["20abc", "2.5", "1e3", "twenty"]) {
      const error = configError(() => memoryConfigFromEnv({ MEMORY_WINDOW_SIZE: bad }));
      expect(error.details.source).toBe("env");
      expect(error.details.fieldErrors.MEMORY_WINDOW_SIZE?.[0]).toContain(JSON.stringify(bad));
      expect(error.message).toContain("MEMORY_WINDOW_SIZE");
    }
  });

  it("names the variable for out-of-range, bad boolean and bad choice values", () => {
    const error = configError(() =>
      memoryConfigFromEnv({
        MEMORY_WINDOW_SIZE: "0",
        MEMORY_SUMMARIZE: "yes",
        MEMORY_FACTS_MODE: "smart",
        MEMORY_ENABLED: { binding: true },
      }),
    );
    expect(Object.keys(error.details.fieldErrors).sort()).toEqual([
      "MEMORY_ENABLED",
      "MEMORY_FACTS_MODE",
      "MEMORY_SUMMARIZE",
      "MEMORY_WINDOW_SIZE",
    ]);
  });
});

describe("MemoryConfig precedence", () => {
  it("R7.6 merges default → code → env → registry → runtime, later wins, with sources", () => {
    const { config, sources } = resolveMemoryConfig({
      code: { window_size: 10, summarize: true, summarize_threshold: 30, facts_mode: "llm" },
      env: {
        MEMORY_WINDOW_SIZE: "11",
        MEMORY_SUMMARIZE_THRESHOLD: "31",
        MAX_HISTORY_TOKENS: "900",
      },
      registry: { summarize_threshold: 32, max_history_tokens: 800, history_aware: false },
      runtime: { max_history_tokens: 700 },
    });
    expect(config).toMatchObject({
      window_size: 11,
      summarize: true,
      summarize_threshold: 32,
      facts_mode: "llm",
      max_history_tokens: 700,
      history_aware: false,
      backend: "postgres",
    });
    expect(sources).toMatchObject({
      window_size: "env",
      summarize: "code",
      summarize_threshold: "registry",
      facts_mode: "code",
      max_history_tokens: "runtime",
      history_aware: "registry",
      backend: "default",
      postgres_dsn: "default",
    });
    expect(Object.keys(sources).sort()).toEqual([...MEMORY_CONFIG_KEYS].sort());
  });

  it("each layer overrides every earlier one for the same key", () => {
    const layers = {
      code: { window_size: 1 },
      env: { MEMORY_WINDOW_SIZE: "2" },
      registry: { window_size: 3 },
      runtime: { window_size: 4 },
    };
    expect(resolveMemoryConfig({}).config.window_size).toBe(20);
    expect(resolveMemoryConfig({ code: layers.code }).config.window_size).toBe(1);
    expect(resolveMemoryConfig({ code: layers.code, env: layers.env }).sources.window_size).toBe(
      "env",
    );
    const { code, env, registry } = layers;
    expect(resolveMemoryConfig({ code, env, runtime: layers.runtime }).config.window_size).toBe(4);
    expect(resolveMemoryConfig({ code, env, registry }).config.window_size).toBe(3);
    expect(resolveMemoryConfig(layers)).toMatchObject({
      config: { window_size: 4 },
      sources: { window_size: "runtime" },
    });
  });

  it("R10.2 a later layer can unset an optional cap with null", () => {
    const { config, sources } = resolveMemoryConfig({
      env: { MAX_HISTORY_TOKENS: "900" },
      runtime: { max_history_tokens: null },
    });
    expect(config.max_history_tokens).toBeUndefined();
    expect("max_history_tokens" in config).toBe(false);
    expect(sources.max_history_tokens).toBe("runtime");
  });

  it("names the layer whose value is invalid", () => {
    expect(configError(() => resolveMemoryConfig({ registry: { windowSize: 5 } })).details).toEqual(
      {
        fieldErrors: { windowSize: ['unknown key; did you mean "window_size"?'] },
        source: "registry",
      },
    );
    expect(
      configError(() => resolveMemoryConfig({ runtime: { backend: "in-memory" } })).details.source,
    ).toBe("runtime");
    expect(
      configError(() => resolveMemoryConfig({ env: { MEMORY_WINDOW_SIZE: "x" } })).details.source,
    ).toBe("env");
  });
});

describe("summaryPeriod", () => {
  it("R7.1 is summarize_threshold - window_size", () => {
    expect(summaryPeriod({ summarize_threshold: 40, window_size: 20 })).toBe(20);
    expect(summaryPeriod({ summarize_threshold: 50, window_size: 20 })).toBe(30);
    expect(summaryPeriod(parseMemoryConfig({}))).toBe(20);
  });

  it("R7.1 falls back to window_size when threshold <= window_size", () => {
    expect(summaryPeriod({ summarize_threshold: 20, window_size: 20 })).toBe(20);
    expect(summaryPeriod({ summarize_threshold: 5, window_size: 20 })).toBe(20);
    expect(summaryPeriod({ summarize_threshold: 21, window_size: 20 })).toBe(1);
  });
});
