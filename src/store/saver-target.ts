/** Reading a LangGraph RunnableConfig the same way in every llamon checkpointer. */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointListOptions } from "@langchain/langgraph-checkpoint";
import { assertThreadId } from "./thread-key.ts";

/** The root checkpoint namespace. */
export const ROOT_NS = "";

export interface CheckpointTarget {
  readonly threadId: string;
  readonly ns: string;
  readonly checkpointId: string | undefined;
}

/** thread_id (required, validated), checkpoint_ns (default root) and checkpoint_id. */
export function checkpointTarget(config: RunnableConfig): CheckpointTarget {
  const c = config.configurable ?? {};
  const threadId = c.thread_id;
  assertThreadId(threadId);
  return {
    threadId,
    ns:
      c.checkpoint_ns === undefined || c.checkpoint_ns === null ? ROOT_NS : String(c.checkpoint_ns),
    checkpointId: c.checkpoint_id ? String(c.checkpoint_id) : undefined,
  };
}

export interface ListQuery {
  /** null: every thread of the saver's agent. */
  readonly threadId: string | null;
  readonly ns: string | null;
  readonly checkpointId: string | null;
  readonly filter: Record<string, unknown> | null;
  readonly before: string | null;
  readonly limit: number | null;
}

/** The filters of `list(config, options)`, normalised. */
export function listQuery(config: RunnableConfig, options?: CheckpointListOptions): ListQuery {
  const c = config.configurable ?? {};
  const threadId = c.thread_id === undefined || c.thread_id === null ? null : String(c.thread_id);
  if (threadId !== null) assertThreadId(threadId);
  const before = options?.before?.configurable?.checkpoint_id;
  return {
    threadId,
    ns: c.checkpoint_ns === undefined || c.checkpoint_ns === null ? null : String(c.checkpoint_ns),
    checkpointId: c.checkpoint_id ? String(c.checkpoint_id) : null,
    filter: options?.filter && Object.keys(options.filter).length > 0 ? options.filter : null,
    before: before === undefined ? null : String(before),
    limit: options?.limit === undefined ? null : Math.max(0, Math.trunc(options.limit)),
  };
}
