/**
 * The Worker's environment, validated with zod once per isolate. A bad value is a clear
 * startup error naming the variable, never a silent default.
 */
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { dbTimeoutProblem } from "../store/db-neon.ts";
import { AGENT_ID_RE } from "../store/thread-key.ts";

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
});

export type WorkerVars = z.infer<typeof envSchema>;

/** Bindings declared in wrangler.toml. */
export interface Bindings {
  THREADS?: DurableObjectNamespace<import("../durable/thread-do.ts").ThreadDO>;
  SUMMARY_QUEUE?: Queue;
}

export type Env = Bindings & Record<string, unknown>;

export function parseWorkerVars(env: Record<string, unknown>): WorkerVars {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".") || "env"}: ${i.message}`);
    throw new LlamonError("CONFIG_INVALID", `invalid Worker configuration — ${lines.join("; ")}`, {
      details: { fieldErrors: lines },
    });
  }
  return parsed.data;
}
