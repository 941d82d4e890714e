/**
 * Reading MemoryConfig from environment variables (Worker vars, `.dev.vars`).
 *
 * - Strings are coerced per key: booleans accept `true`/`false`/`1`/`0` (any case);
 *   integers must be whole numbers written in digits (`20abc`, `2.5`, `1e3` are errors
 *   that name the variable). Surrounding whitespace is ignored; an empty value is unset.
 * - Wrangler `[vars]` may also hold JSON numbers and booleans; those are taken as they are.
 * - `MEMORY_BACKEND` also accepts the CLI spelling `in-memory` and maps it to `in_memory`.
 *   This is deliberate: `.dev.vars` is written by the CLI, whose `--memory` values use the
 *   hyphen (R1 table), and an environment variable is a CLI-side surface. In code, R1.1
 *   still holds: `backend: "in-memory"` is a validation error naming `in_memory`.
 */
import { issuesToFieldErrors, memoryConfigError, showValue } from "./config-issues.ts";
import {
  MEMORY_ENV_VARS,
  type MemoryConfigKey,
  type MemoryConfigPatch,
  type MemoryEnvVar,
  memoryConfigPatchSchema,
} from "./config-schema.ts";

type ValueKind = "boolean" | "int" | "string";

const KIND: Record<MemoryConfigKey, ValueKind> = {
  enabled: "boolean",
  backend: "string",
  postgres_dsn: "string",
  window_size: "int",
  history_aware: "boolean",
  max_history_tokens: "int",
  persist_trim_keep_groups: "int",
  summarize: "boolean",
  summarize_threshold: "int",
  facts_mode: "string",
  fact_recall_max_items: "int",
  recall: "boolean",
  recall_max_items: "int",
  recall_semantic: "boolean",
  embedding_provider: "string",
  embedding_model: "string",
  embedding_base_url: "string",
  prompt_context_mode: "string",
  a2a_history_max_messages: "int",
};

type Coerced = { ok: true; value: unknown } | { ok: false; problem: string } | undefined;

function coerceString(text: string, kind: ValueKind, key: MemoryConfigKey): Coerced {
  if (kind === "boolean") {
    const lower = text.toLowerCase();
    if (lower === "true" || lower === "1") return { ok: true, value: true };
    if (lower === "false" || lower === "0") return { ok: true, value: false };
    return { ok: false, problem: `must be true, false, 1 or 0, got ${showValue(text)}` };
  }
  if (kind === "int") {
    if (!/^[+-]?\d+$/.test(text)) {
      return { ok: false, problem: `must be a whole number, got ${showValue(text)}` };
    }
    return { ok: true, value: Number(text) };
  }
  if (key === "backend" && text === "in-memory") return { ok: true, value: "in_memory" };
  return { ok: true, value: text };
}

/** undefined = unset; otherwise the coerced value or the problem with it. */
function coerce(raw: unknown, key: MemoryConfigKey): Coerced {
  const kind = KIND[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === "string") {
    const text = raw.trim();
    return text === "" ? undefined : coerceString(text, kind, key);
  }
  if (typeof raw === "number" && kind === "int") return { ok: true, value: raw };
  if (typeof raw === "boolean" && kind === "boolean") return { ok: true, value: raw };
  return { ok: false, problem: `must be a string, got ${showValue(raw)}` };
}

/**
 * The MemoryConfig layer set by environment variables ({@link MEMORY_ENV_VARS}); variables
 * that are absent or empty are left out. Other entries of `env` (bindings, unrelated vars)
 * are ignored. Throws `LlamonError("CONFIG_INVALID")` whose `fieldErrors` are keyed by the
 * variable name, with `source: "env"`.
 */
export function memoryConfigFromEnv(env: Readonly<Record<string, unknown>>): MemoryConfigPatch {
  const patch: Record<string, unknown> = {};
  const fieldErrors: Record<string, string[]> = {};
  const variableOf: Record<string, string> = {};
  for (const [variable, key] of Object.entries(MEMORY_ENV_VARS) as [
    MemoryEnvVar,
    MemoryConfigKey,
  ][]) {
    variableOf[key] = variable;
    const coerced = coerce(env[variable], key);
    if (coerced === undefined) continue;
    if (coerced.ok) patch[key] = coerced.value;
    else fieldErrors[variable] = [coerced.problem];
  }
  const result = memoryConfigPatchSchema.safeParse(patch, { reportInput: true });
  if (!result.success) {
    const more = issuesToFieldErrors(result.error.issues, {
      knownKeys: Object.keys(KIND),
      label: (key) => variableOf[key] ?? key,
    });
    for (const [field, lines] of Object.entries(more)) {
      fieldErrors[field] = [...(fieldErrors[field] ?? []), ...lines];
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !result.success) {
    throw memoryConfigError(fieldErrors, "env");
  }
  return result.data;
}
