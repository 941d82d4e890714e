/**
 * What `@langchain/core` imports from `langsmith` when LangSmith tracing is off — put in its
 * place in the Worker bundle by wrangler's `[alias]` (wrangler.toml) for the specifiers
 * `langsmith`, `langsmith/run_trees` and `langsmith/singletons/traceable`. LangSmith's client
 * (≈ 0.5 MiB of the bundle) is otherwise bundled although a Worker never traces: core only
 * creates a context object per runnable call and asks whether a function is "traceable".
 *
 * Tracing itself is not available with this alias: turning it on (LANGSMITH_TRACING or
 * LANGCHAIN_TRACING_V2) fails each model call with a message that says how to get it back
 * (remove the `[alias]` lines). Worker bundles only; never imported by llamon's own code.
 */

const NO_TRACING =
  "LangSmith tracing is not in this Worker's bundle (wrangler.toml [alias] replaces langsmith with llamon's shim): unset LANGSMITH_TRACING / LANGCHAIN_TRACING_V2, or remove the langsmith lines of [alias] to trace";

/** The per-call context `@langchain/core` keeps in its async local storage. */
export class RunTree {
  extra: Record<PropertyKey, unknown> = {};
  [key: PropertyKey]: unknown;

  constructor(config: object = {}) {
    // A copy of another RunTree keeps every field, context variables (symbol keys) included.
    Object.assign(this, config);
    if (typeof this.extra !== "object" || this.extra === null) this.extra = {};
  }
}

export function isRunTree(value: unknown): value is RunTree {
  return value instanceof RunTree;
}

/**
 * The sortable id a tracer gives a run: its start time in microseconds (ISO, without
 * separators) followed by the run id.
 */
export function convertToDottedOrderFormat(
  epoch: number,
  runId: string,
  executionOrder = 1,
): { dottedOrder: string; microsecondPrecisionDatestring: string } {
  const iso = new Date(epoch).toISOString(); // 2026-01-02T03:04:05.678Z
  const microsecondPrecisionDatestring = `${iso.slice(0, -1)}${String(executionOrder).padStart(3, "0").slice(-3)}Z`;
  return {
    dottedOrder: microsecondPrecisionDatestring.replace(/[^0-9A-Za-z]/g, "") + runId,
    microsecondPrecisionDatestring,
  };
}

/** Only LangSmith's `traceable()` makes traceable functions, and it is not bundled. */
export function isTraceableFunction(_fn: unknown): boolean {
  return false;
}

export function getCurrentRunTree(permitAbsent?: boolean): RunTree | undefined {
  if (permitAbsent) return undefined;
  throw new Error(NO_TRACING);
}

/** LangSmith's API client: constructed only when tracing is on. */
export class Client {
  constructor() {
    throw new Error(NO_TRACING);
  }
}
