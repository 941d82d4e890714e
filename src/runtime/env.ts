/**
 * The Worker's environment, validated with zod. A bad value is a clear error naming the
 * variable, never a silent default. Shared by every layer above this one (agent, a2a, admin,
 * studio, queue, durable, worker): none of them reads a variable of its own without it.
 */
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { dbTimeoutProblem } from "../store/db-neon.ts";
import { AGENT_ID_RE } from "../store/thread-key.ts";
import { fieldErrorLines, zodFieldErrors } from "../zod-issues.ts";
import { a2aAuthEnvShape } from "./auth-config.ts";
import { memoizeOnEnv } from "./env-memo.ts";

/** Agent ids name Workers and databases: lowercase letters, digits, '-' and '_'; no ':'. */

export const agentIdSchema = z
  .string()
  .regex(
    AGENT_ID_RE,
    "AGENT_ID must be 1–63 characters of lowercase letters, digits, '-' or '_', starting with a letter or digit",
  );

/**
 * MEMORY_DB_TIMEOUT_MS: the deadline of each database request (ms). Digits only (a number
 * from wrangler.toml `[vars]` is accepted too); empty or unset means the default (10000).
 */
const dbTimeoutSchema = z
  .unknown()
  .transform((value, ctx): number | undefined => {
    if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
    const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    const problem = dbTimeoutProblem(n, "MEMORY_DB_TIMEOUT_MS", value);
    if (problem === undefined) return n as number;
    ctx.issues.push({ code: "custom", message: problem, input: value });
    return z.NEVER;
  })
  .optional();

const envSchema = z.looseObject({
  AGENT_ID: agentIdSchema,
  POSTGRES_MEMORY_DSN: z.string().optional(),
  /** Dev only: send Neon HTTP queries to the local Neon-protocol proxy instead of Neon. */
  LLAMON_NEON_FETCH_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  MEMORY_DB_TIMEOUT_MS: dbTimeoutSchema,
  /** Who may call over A2A (runtime/auth-config.ts checks the combination). */
  ...a2aAuthEnvShape,
  /** The reference agent's conformance scenarios (worker/scenarios.ts). */
  LLAMON_A2A_SCENARIOS: z
    .enum(["on", "input-required", "off", ""], {
      error: 'must be "on", "input-required" or "off"',
    })
    .optional()
    .transform((v) => (v === "on" || v === "input-required" ? v : "off")),
  /** The period (seconds) of the A2A_RATE_LIMITER binding, for Retry-After: 10 or 60. */
  A2A_RATE_LIMIT_PERIOD_SECONDS: z
    .union([z.literal("10"), z.literal("60"), z.literal(10), z.literal(60), z.literal("")], {
      error: "must be 10 or 60 (the period of the [[ratelimits]] binding)",
    })
    .optional()
    .transform((v) => (v === undefined || v === "" ? 60 : Number(v))),
});

export type WorkerVars = z.infer<typeof envSchema>;

/** A Durable Object namespace as this layer uses it (any `DurableObjectNamespace<T>` fits). */
export interface ObjectNamespace {
  getByName(name: string): unknown;
}

/**
 * Bindings declared in wrangler.toml. THREADS is untyped here (this layer does not know the
 * object class, which sits above it): reach an object through runtime/objects.ts, which
 * gives the stub the role interface its caller declares.
 */
export interface Bindings {
  THREADS?: ObjectNamespace;
  SUMMARY_QUEUE?: Queue;
  /** Cloudflare's rate-limiting binding (`[[ratelimits]]`): A2A calls per principal. */
  A2A_RATE_LIMITER?: RateLimiterBinding;
}

/** What the A2A endpoint uses of a `[[ratelimits]]` binding. */
export interface RateLimiterBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export type Env = Bindings & Record<string, unknown>;

/**
 * The validated variables of `env` (a clear CONFIG_INVALID naming each bad one). Validated once
 * per isolate while the env is unchanged (env-memo.ts); the result is frozen.
 */
export const parseWorkerVars: (env: Readonly<Record<string, unknown>>) => WorkerVars =
  memoizeOnEnv(validateWorkerVars);

function validateWorkerVars(env: Readonly<Record<string, unknown>>): WorkerVars {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const fieldErrors = zodFieldErrors(parsed.error.issues, { rootField: "env" });
    throw new LlamonError(
      "CONFIG_INVALID",
      `invalid Worker configuration — ${fieldErrorLines(fieldErrors).join("; ")}`,
      { details: { fieldErrors } },
    );
  }
  return parsed.data;
}
