/**
 * Which chat model a Worker (or `llamon run`) uses, chosen by configuration
 * (`.dev.vars` locally, `[vars]` + secrets in production). Validated with zod; a missing
 * or bad value is `LlamonError("CONFIG_INVALID")` naming the variable. No provider
 * configured → the offline model, labelled so nobody mistakes it for a real one.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { zodFieldErrors } from "../zod-issues.ts";
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicChatModel } from "./anthropic.ts";
import { safeUrl } from "./http.ts";
import { OFFLINE_MODEL_LABEL, OfflineChatModel } from "./offline.ts";
import { OPENAI_DEFAULT_BASE_URL, OpenAICompatibleChatModel } from "./openai-compatible.ts";
import { type WorkersAIBinding, WorkersAIChatModel } from "./workers-ai.ts";

export const LLM_PROVIDERS = ["openai-compatible", "anthropic", "workers-ai", "offline"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export interface ModelEnvVar {
  readonly name: string;
  /** One line, for docs and `.dev.vars.example`. */
  readonly description: string;
  /** `secret`: set with `wrangler secret put`; `binding`: declared in wrangler.toml. */
  readonly kind: "var" | "secret" | "binding";
}

/** Every variable {@link createModelFromEnv} reads, with a one-line description. */
export const MODEL_ENV_VARS: readonly ModelEnvVar[] = [
  {
    name: "LLM_PROVIDER",
    kind: "var",
    description:
      "Model provider: openai-compatible | anthropic | workers-ai | offline. Empty = the offline model (no LLM; replies describe what it received).",
  },
  {
    name: "LLM_MODEL",
    kind: "var",
    description:
      "Model name, required with a provider: e.g. gpt-4o-mini, llama3.1 (Ollama), claude-sonnet-4-5, @cf/meta/llama-3.3-70b-instruct-fp8-fast.",
  },
  {
    name: "LLM_API_KEY",
    kind: "secret",
    description:
      "API key for openai-compatible or anthropic (falls back to OPENAI_API_KEY / ANTHROPIC_API_KEY); local servers need none.",
  },
  {
    name: "OPENAI_API_KEY",
    kind: "secret",
    description: "openai-compatible: used when LLM_API_KEY is empty.",
  },
  {
    name: "ANTHROPIC_API_KEY",
    kind: "secret",
    description: "anthropic: used when LLM_API_KEY is empty.",
  },
  {
    name: "LLM_BASE_URL",
    kind: "var",
    description: `openai-compatible: URL up to /v1 (default ${OPENAI_DEFAULT_BASE_URL}; Ollama http://localhost:11434/v1; vLLM http://localhost:8000/v1). anthropic: default ${ANTHROPIC_DEFAULT_BASE_URL}.`,
  },
  {
    name: "LLM_TEMPERATURE",
    kind: "var",
    description: "Sampling temperature, 0–2 (anthropic 0–1). Empty = the provider's default.",
  },
  {
    name: "LLM_MAX_TOKENS",
    kind: "var",
    description:
      "Most tokens per reply. Empty = provider default (anthropic and workers-ai: 1024).",
  },
  {
    name: "LLM_TIMEOUT_MS",
    kind: "var",
    description: "Timeout of one model call in ms (default 120000).",
  },
  {
    name: "LLM_CACHE_SYSTEM_PROMPT",
    kind: "var",
    description: "anthropic: mark the system prompt for prompt caching, true/false (default true).",
  },
  {
    name: "AI",
    kind: "binding",
    description: 'workers-ai: the Workers AI binding — `[ai] binding = "AI"` in wrangler.toml.',
  },
];

export interface SelectedModel {
  model: BaseChatModel;
  provider: LlmProvider;
  /** For logs and the agent card, e.g. `anthropic:claude-sonnet-4-5`. */
  label: string;
}

export const OFFLINE_UNCONFIGURED_LABEL = `${OFFLINE_MODEL_LABEL} (no LLM provider configured)`;

/** Strings are trimmed; empty means unset (as in `.dev.vars.example`). */
const blank = (v: unknown) => {
  if (typeof v !== "string") return v;
  const t = v.trim();
  return t === "" ? undefined : t;
};
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const positiveInt = (what: string) =>
  optional(
    z.coerce
      .number({ error: `${what} must be a whole number` })
      .int(`${what} must be a whole number`)
      .positive(`${what} must be greater than 0`),
  );

const envSchema = z.object({
  LLM_PROVIDER: z.preprocess(
    (v) => (typeof blank(v) === "string" ? (blank(v) as string).toLowerCase() : blank(v)),
    z
      .enum(LLM_PROVIDERS, {
        error: `must be one of ${LLM_PROVIDERS.join(", ")} (or empty for the offline model)`,
      })
      .optional(),
  ),
  LLM_MODEL: optional(z.string()),
  LLM_API_KEY: optional(z.string()),
  OPENAI_API_KEY: optional(z.string()),
  ANTHROPIC_API_KEY: optional(z.string()),
  LLM_BASE_URL: optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" })),
  LLM_TEMPERATURE: optional(
    z.coerce
      .number({ error: "must be a number" })
      .min(0, "must be 0 or more")
      .max(2, "must be 2 or less"),
  ),
  LLM_MAX_TOKENS: positiveInt("LLM_MAX_TOKENS"),
  LLM_TIMEOUT_MS: positiveInt("LLM_TIMEOUT_MS"),
  LLM_CACHE_SYSTEM_PROMPT: z.preprocess((v) => {
    const b = blank(v);
    if (typeof b !== "string") return b;
    if (/^(true|1|yes|on)$/i.test(b)) return true;
    if (/^(false|0|no|off)$/i.test(b)) return false;
    return b;
  }, z.boolean({ error: "must be true or false" }).optional()),
});

type ModelEnv = z.infer<typeof envSchema>;

export interface ModelConfigErrorDetails {
  /** Problems keyed by the variable name. */
  fieldErrors: Record<string, string[]>;
}

/** The model chosen by `env` (see {@link MODEL_ENV_VARS}). */
export function createModelFromEnv(env: Readonly<Record<string, unknown>>): SelectedModel {
  const vars = parseModelEnv(env);
  const provider = vars.LLM_PROVIDER;
  if (provider === undefined) {
    const stray = (["LLM_MODEL", "LLM_BASE_URL", "LLM_API_KEY"] as const).filter(
      (k) => vars[k] !== undefined,
    );
    if (stray.length > 0) {
      throw configError(
        "LLM_PROVIDER",
        `is empty but ${stray.join(", ")} ${stray.length > 1 ? "are" : "is"} set: set LLM_PROVIDER to ${LLM_PROVIDERS.slice(0, 3).join(" | ")} (or remove ${stray.join(", ")} to use the offline model)`,
      );
    }
    return {
      model: new OfflineChatModel(),
      provider: "offline",
      label: OFFLINE_UNCONFIGURED_LABEL,
    };
  }
  if (provider === "offline") {
    return {
      model: new OfflineChatModel(),
      provider,
      label: `${OFFLINE_MODEL_LABEL} (LLM_PROVIDER=offline)`,
    };
  }
  const model = vars.LLM_MODEL;
  if (model === undefined) {
    throw configError(
      "LLM_MODEL",
      `is required with LLM_PROVIDER=${provider}: ${modelExample(provider)}`,
    );
  }
  const common = {
    model,
    temperature: vars.LLM_TEMPERATURE,
    maxTokens: vars.LLM_MAX_TOKENS,
    timeoutMs: vars.LLM_TIMEOUT_MS,
  };
  switch (provider) {
    case "openai-compatible": {
      const [apiKey, apiKeyEnvVar] = pickKey(vars, "OPENAI_API_KEY");
      const baseURL = vars.LLM_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
      if (apiKey === undefined && new URL(baseURL).hostname === "api.openai.com") {
        throw configError(
          "LLM_API_KEY",
          `is required for ${safeUrl(baseURL)} (set LLM_API_KEY or OPENAI_API_KEY; a local server in LLM_BASE_URL needs none)`,
        );
      }
      return {
        model: new OpenAICompatibleChatModel({ ...common, baseURL, apiKey, apiKeyEnvVar }),
        provider,
        label: `${provider}:${model} @ ${safeUrl(baseURL)}`,
      };
    }
    case "anthropic": {
      const [apiKey, apiKeyEnvVar] = pickKey(vars, "ANTHROPIC_API_KEY");
      if (apiKey === undefined) {
        throw configError(
          "LLM_API_KEY",
          "is required with LLM_PROVIDER=anthropic (set LLM_API_KEY or ANTHROPIC_API_KEY)",
        );
      }
      if (vars.LLM_TEMPERATURE !== undefined && vars.LLM_TEMPERATURE > 1) {
        throw configError("LLM_TEMPERATURE", "must be between 0 and 1 for anthropic");
      }
      const baseURL = vars.LLM_BASE_URL;
      return {
        model: new AnthropicChatModel({
          ...common,
          apiKey,
          apiKeyEnvVar,
          baseURL,
          cacheSystemPrompt: vars.LLM_CACHE_SYSTEM_PROMPT,
        }),
        provider,
        label: `${provider}:${model}${baseURL ? ` @ ${safeUrl(baseURL)}` : ""}`,
      };
    }
    case "workers-ai": {
      const binding = env.AI as WorkersAIBinding | undefined;
      if (!binding || typeof binding !== "object" || typeof binding.run !== "function") {
        throw configError(
          "AI",
          'binding is missing: LLM_PROVIDER=workers-ai needs the Workers AI binding — add `[ai] binding = "AI"` to wrangler.toml',
        );
      }
      return {
        model: new WorkersAIChatModel({ ...common, binding }),
        provider,
        label: `${provider}:${model}`,
      };
    }
  }
}

/** The model variables of `env`, validated; throws CONFIG_INVALID naming each bad variable. */
export function parseModelEnv(env: Readonly<Record<string, unknown>>): ModelEnv {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(envSchema.shape)) picked[key] = env[key];
  const parsed = envSchema.safeParse(picked);
  if (parsed.success) return parsed.data;
  // The schema's messages start with the variable's name, which is the field already.
  const fieldErrors = zodFieldErrors(parsed.error.issues, {
    rootField: "env",
    message: (name, message) =>
      message.startsWith(name) ? message.slice(name.length).trim() : message,
  });
  const lines = Object.entries(fieldErrors).map(([k, v]) => `${k} ${v.join("; ")}`);
  throw new LlamonError<ModelConfigErrorDetails>(
    "CONFIG_INVALID",
    `invalid model configuration — ${lines.join("; ")}`,
    { details: { fieldErrors } },
  );
}

function pickKey(
  vars: ModelEnv,
  fallback: "OPENAI_API_KEY" | "ANTHROPIC_API_KEY",
): [string | undefined, string] {
  if (vars.LLM_API_KEY !== undefined) return [vars.LLM_API_KEY, "LLM_API_KEY"];
  if (vars[fallback] !== undefined) return [vars[fallback], fallback];
  return [undefined, `LLM_API_KEY (or ${fallback})`];
}

function modelExample(provider: LlmProvider): string {
  switch (provider) {
    case "anthropic":
      return "e.g. LLM_MODEL=claude-sonnet-4-5";
    case "workers-ai":
      return "e.g. LLM_MODEL=@cf/meta/llama-3.3-70b-instruct-fp8-fast";
    default:
      return "e.g. LLM_MODEL=gpt-4o-mini (OpenAI) or llama3.1 (Ollama)";
  }
}

function configError(variable: string, problem: string): LlamonError<ModelConfigErrorDetails> {
  return new LlamonError<ModelConfigErrorDetails>("CONFIG_INVALID", `${variable} ${problem}`, {
    details: { fieldErrors: { [variable]: [problem] } },
  });
}
