import { describe, expect, it } from "vitest";
import { loadRegistry, memoryEntityFor, registryLayerFor } from "../../../src/admin/registry.ts";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import { type MemoryConfigErrorDetails, resolveMemoryConfig } from "../../../src/memory/config.ts";

function registryError(input: unknown): LlamonError<MemoryConfigErrorDetails> {
  try {
    loadRegistry(input, "llamon.registry.json");
  } catch (error) {
    expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
    return error as LlamonError<MemoryConfigErrorDetails>;
  }
  throw new Error("expected a CONFIG_INVALID error");
}

const FILE = {
  version: 1,
  entities: [
    { kind: "Agent", name: "support-bot", anything: { goes: true } },
    { kind: "Memory", name: "default", config: { window_size: 30 } },
    {
      kind: "Memory",
      name: "support",
      agents: ["support-bot", "billing-bot"],
      config: { summarize: true, summarize_threshold: 60, max_history_tokens: null },
    },
  ],
};

describe("registry configuration (R7.6)", () => {
  it("R7.6 a Memory entity's config takes the MemoryConfig keys; other kinds are ignored", () => {
    const registry = loadRegistry(FILE);
    expect(registry.memory.map((e) => e.name)).toEqual(["default", "support"]);
    expect(registryLayerFor(registry, "support-bot")).toEqual({
      summarize: true,
      summarize_threshold: 60,
      max_history_tokens: null,
    });
    expect(registryLayerFor(registry, "someone-else")).toEqual({ window_size: 30 });
    expect(memoryEntityFor(registry, "billing-bot")?.name).toBe("support");
    expect(registryLayerFor(undefined, "x")).toEqual({});
    expect(loadRegistry(JSON.stringify(FILE))).toEqual(registry);
  });

  it("R7.6 the registry layer sits between env and runtime", () => {
    const registry = registryLayerFor(loadRegistry(FILE), "support-bot");
    const { config, sources } = resolveMemoryConfig({
      env: { MEMORY_SUMMARIZE: "false", MEMORY_WINDOW_SIZE: "12", MAX_HISTORY_TOKENS: "800" },
      registry,
      runtime: { summarize_threshold: 80 },
    });
    expect(config).toMatchObject({ summarize: true, window_size: 12, summarize_threshold: 80 });
    expect(config.max_history_tokens).toBeUndefined();
    expect(sources).toMatchObject({
      summarize: "registry",
      window_size: "env",
      summarize_threshold: "runtime",
      max_history_tokens: "registry",
    });
  });

  it("names the place of every problem", () => {
    const error = registryError({
      version: 1,
      entities: [
        { kind: "Memory", name: "a", config: { windowSize: 3, summarize: "yes" } },
        { kind: "memory", name: "b", config: {} },
        { kind: "Memory", name: "", config: {}, extra: 1 },
        { kind: "Memory", name: "c", agents: ["Bad Id"], config: { backend: "in-memory" } },
      ],
    });
    const fields = error.details.fieldErrors;
    expect(fields["entities[0].config.windowSize"]?.[0]).toContain('did you mean "window_size"');
    expect(fields["entities[0].config.summarize"]?.[0]).toContain("true or false");
    expect(fields["entities[1].kind"]?.[0]).toContain('use "Memory"');
    expect(fields["entities[2].name"]?.[0]).toContain("must not be empty");
    expect(fields["entities[2].extra"]).toEqual(["unknown key"]);
    expect(fields["entities[3].agents[0]"]?.[0]).toContain("AGENT_ID");
    expect(error.details.source).toBe("llamon.registry.json");
    expect(error.message).toContain("entities[0].config.windowSize");
  });

  it("rejects a bad file shape, a wrong version and text that is not JSON", () => {
    expect(registryError({ entities: [] }).details.fieldErrors.version).toBeDefined();
    expect(registryError({ version: 2, entities: [] }).details.fieldErrors.version).toEqual([
      "must be 1",
    ]);
    expect(
      registryError({ version: 1, entities: [], memory: {} }).details.fieldErrors.memory,
    ).toEqual(["unknown key"]);
    expect(registryError("{ not json").details.fieldErrors["(root)"]).toEqual(["not JSON"]);
    expect(registryError([]).details.fieldErrors["(root)"]).toBeDefined();
  });

  it("refuses an ambiguous choice of entity", () => {
    const twoDefaults = registryError({
      version: 1,
      entities: [
        { kind: "Memory", name: "a", config: {} },
        { kind: "Memory", name: "b", config: {} },
      ],
    });
    expect(twoDefaults.details.fieldErrors.entities?.[0]).toContain("more than one");
    const sameAgent = registryError({
      version: 1,
      entities: [
        { kind: "Memory", name: "a", agents: ["x"], config: {} },
        { kind: "Memory", name: "b", agents: ["x"], config: {} },
      ],
    });
    expect(sameAgent.details.fieldErrors.entities?.[0]).toContain('"x" is listed by two');
  });
});
