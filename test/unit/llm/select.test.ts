import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import { AnthropicChatModel } from "../../../src/llm/anthropic.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { OpenAICompatibleChatModel } from "../../../src/llm/openai-compatible.ts";
import {
  createModelFromEnv,
  MODEL_ENV_VARS,
  type ModelConfigErrorDetails,
  OFFLINE_UNCONFIGURED_LABEL,
} from "../../../src/llm/select.ts";
import { WorkersAIChatModel } from "../../../src/llm/workers-ai.ts";
import { useStub } from "./stub-server.ts";

function configError(env: Record<string, unknown>): LlamonError<ModelConfigErrorDetails> {
  try {
    createModelFromEnv(env);
  } catch (error) {
    expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
    return error as LlamonError<ModelConfigErrorDetails>;
  }
  throw new Error("expected CONFIG_INVALID");
}

const fakeAI = { run: async () => ({ response: "from workers ai" }) };

describe("createModelFromEnv", () => {
  it("no provider → the offline model, clearly labelled (empty values count as unset)", async () => {
    for (const env of [{}, { LLM_PROVIDER: "", LLM_MODEL: " ", OPENAI_API_KEY: "sk-x" }]) {
      const selected = createModelFromEnv(env);
      expect(selected.provider).toBe("offline");
      expect(selected.label).toBe("offline-model (no LLM provider configured)");
      expect(selected.label).toBe(OFFLINE_UNCONFIGURED_LABEL);
      expect(selected.model).toBeInstanceOf(OfflineChatModel);
    }
    const reply = await createModelFromEnv({}).model.invoke([new HumanMessage("hi")]);
    expect(String(reply.content)).toMatch(/^offline-model: received=1/);
  });

  it("LLM_PROVIDER=offline is explicit", () => {
    const selected = createModelFromEnv({ LLM_PROVIDER: "offline" });
    expect(selected.model).toBeInstanceOf(OfflineChatModel);
    expect(selected.label).toBe("offline-model (LLM_PROVIDER=offline)");
  });

  it("openai-compatible with key, options and default base URL", () => {
    const selected = createModelFromEnv({
      LLM_PROVIDER: "openai-compatible",
      LLM_MODEL: "gpt-4o-mini",
      LLM_API_KEY: "sk-abc",
      LLM_TEMPERATURE: "0.4",
      LLM_MAX_TOKENS: "300",
      LLM_TIMEOUT_MS: 5000,
    });
    expect(selected.provider).toBe("openai-compatible");
    expect(selected.label).toBe("openai-compatible:gpt-4o-mini @ https://api.openai.com/v1");
    const m = selected.model as OpenAICompatibleChatModel;
    expect(m).toBeInstanceOf(OpenAICompatibleChatModel);
    expect([m.model, m.baseURL, m.temperature, m.maxTokens, m.timeoutMs]).toEqual([
      "gpt-4o-mini",
      "https://api.openai.com/v1",
      0.4,
      300,
      5000,
    ]);
    expect(JSON.stringify(m)).not.toContain("sk-abc");
  });

  it("openai-compatible on a local server needs no key", () => {
    const selected = createModelFromEnv({
      LLM_PROVIDER: "OpenAI-Compatible",
      LLM_MODEL: "llama3.1",
      LLM_BASE_URL: "http://localhost:11434/v1",
    });
    expect(selected.label).toBe("openai-compatible:llama3.1 @ http://localhost:11434/v1");
  });

  it("anthropic with ANTHROPIC_API_KEY fallback and cache toggle", () => {
    const selected = createModelFromEnv({
      LLM_PROVIDER: "anthropic",
      LLM_MODEL: "claude-sonnet-4-5",
      ANTHROPIC_API_KEY: "sk-ant-x",
      LLM_CACHE_SYSTEM_PROMPT: "false",
    });
    expect(selected.label).toBe("anthropic:claude-sonnet-4-5");
    const m = selected.model as AnthropicChatModel;
    expect(m).toBeInstanceOf(AnthropicChatModel);
    expect(m.cacheSystemPrompt).toBe(false);
    expect(m.maxTokens).toBe(1024);
    expect(
      createModelFromEnv({ LLM_PROVIDER: "anthropic", LLM_MODEL: "c", LLM_API_KEY: "k" }).model,
    ).toHaveProperty("cacheSystemPrompt", true);
  });

  it("workers-ai with the AI binding", async () => {
    const selected = createModelFromEnv({
      LLM_PROVIDER: "workers-ai",
      LLM_MODEL: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      AI: fakeAI,
    });
    expect(selected.model).toBeInstanceOf(WorkersAIChatModel);
    expect(selected.label).toBe("workers-ai:@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    expect((await selected.model.invoke("hi")).content).toBe("from workers ai");
  });

  it("a missing model names LLM_MODEL", () => {
    for (const provider of ["openai-compatible", "anthropic", "workers-ai"]) {
      const e = configError({ LLM_PROVIDER: provider, LLM_API_KEY: "k", AI: fakeAI });
      expect(e.message).toMatch(/^LLM_MODEL is required with LLM_PROVIDER=/);
      expect(Object.keys(e.details.fieldErrors)).toEqual(["LLM_MODEL"]);
    }
  });

  it("a missing key names LLM_API_KEY and its fallback", () => {
    const openai = configError({ LLM_PROVIDER: "openai-compatible", LLM_MODEL: "gpt-4o-mini" });
    expect(openai.message).toContain("LLM_API_KEY");
    expect(openai.message).toContain("OPENAI_API_KEY");
    const anthropic = configError({ LLM_PROVIDER: "anthropic", LLM_MODEL: "claude-x" });
    expect(anthropic.message).toContain("ANTHROPIC_API_KEY");
    expect(anthropic.details.fieldErrors).toHaveProperty("LLM_API_KEY");
  });

  it("workers-ai without the binding names AI and wrangler.toml", () => {
    const e = configError({ LLM_PROVIDER: "workers-ai", LLM_MODEL: "@cf/x", AI: "not a binding" });
    expect(e.details.fieldErrors).toHaveProperty("AI");
    expect(e.message).toContain('[ai] binding = "AI"');
  });

  it("invalid values name their variable", () => {
    const e = configError({
      LLM_PROVIDER: "openai",
      LLM_TEMPERATURE: "hot",
      LLM_MAX_TOKENS: "-3",
      LLM_TIMEOUT_MS: "1.5",
      LLM_BASE_URL: "localhost:11434",
      LLM_CACHE_SYSTEM_PROMPT: "maybe",
    });
    expect(Object.keys(e.details.fieldErrors).sort()).toEqual([
      "LLM_BASE_URL",
      "LLM_CACHE_SYSTEM_PROMPT",
      "LLM_MAX_TOKENS",
      "LLM_PROVIDER",
      "LLM_TEMPERATURE",
      "LLM_TIMEOUT_MS",
    ]);
    expect(e.message).toContain(
      "LLM_PROVIDER must be one of openai-compatible, anthropic, workers-ai, offline",
    );
    expect(e.message).toContain("LLM_TEMPERATURE must be a number");
    expect(e.message).toContain("LLM_MAX_TOKENS must be greater than 0");
    expect(configError({ LLM_TEMPERATURE: "3" }).message).toContain(
      "LLM_TEMPERATURE must be 2 or less",
    );
    expect(
      configError({
        LLM_PROVIDER: "anthropic",
        LLM_MODEL: "c",
        LLM_API_KEY: "k",
        LLM_TEMPERATURE: "1.5",
      }).message,
    ).toContain("between 0 and 1");
  });

  it("model settings without LLM_PROVIDER are an error, not a silent offline model", () => {
    const e = configError({ LLM_MODEL: "gpt-4o-mini", LLM_API_KEY: "sk" });
    expect(e.message).toMatch(/^LLM_PROVIDER is empty but LLM_MODEL, LLM_API_KEY are set/);
    expect(e.message).not.toContain('sk"');
  });

  it("MODEL_ENV_VARS lists every variable once with a one-line description", () => {
    const names = MODEL_ENV_VARS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        "LLM_PROVIDER",
        "LLM_MODEL",
        "LLM_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "LLM_BASE_URL",
        "LLM_TEMPERATURE",
        "LLM_MAX_TOKENS",
        "AI",
      ]),
    );
    for (const v of MODEL_ENV_VARS) expect(v.description).not.toContain("\n");
  });
});

describe("createModelFromEnv against a stub provider", () => {
  const stub = useStub();

  it("a rejected fallback key names the variable it came from", async () => {
    stub.reply({ status: 401, body: { error: { message: "bad key" } } });
    const { model } = createModelFromEnv({
      LLM_PROVIDER: "openai-compatible",
      LLM_MODEL: "m",
      LLM_BASE_URL: `${stub.url}/v1`,
      OPENAI_API_KEY: "sk-fallback-key",
    });
    await expect(model.invoke("hi")).rejects.toThrow(/check OPENAI_API_KEY/);
    expect(stub.requests).toHaveLength(1);
    expect(stub.last?.headers.authorization).toBe("Bearer sk-fallback-key");
  });

  it("anthropic reaches LLM_BASE_URL", async () => {
    stub.reply({
      body: {
        content: [{ type: "text", text: "hi from stub" }],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    const { model } = createModelFromEnv({
      LLM_PROVIDER: "anthropic",
      LLM_MODEL: "claude-x",
      LLM_API_KEY: "k-123",
      LLM_BASE_URL: stub.url,
    });
    expect((await model.invoke("hi")).content).toBe("hi from stub");
    expect(stub.last?.path).toBe("/v1/messages");
  });
});
