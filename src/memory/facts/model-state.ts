/**
 * The facts as the `llm` mode's jobs left them (R8.1): stored under the thread's key
 * {@link MODEL_FACTS_MEMORY_KEY}, next to the `facts` row the turns keep with the heuristic,
 * and never written by a turn. Its value is the facts row's version 2 shape plus `applied`,
 * the user messages whose operations it holds (`{ id, position }`, the newest
 * {@link MAX_APPLIED}): a job finds its message there and changes nothing the second time.
 * Reading is lenient like the facts row: anything unreadable is no state.
 */
import { z } from "zod";
import type { JsonValue } from "../../store/persistent-memory.ts";
import type { FactState } from "./history.ts";
import { factsToJson, parseFactState } from "./storage.ts";
import { MAX_ID_CHARS } from "./types.ts";

/** The persistent_memory key of the facts the `llm` mode's jobs keep. */
export const MODEL_FACTS_MEMORY_KEY = "facts_llm";
/** The newest this many applied messages are remembered. */
export const MAX_APPLIED = 64;

/** A user message whose operations a state holds. */
export interface AppliedMessage {
  readonly id: string;
  readonly position: number;
}

export interface ModelFactState extends FactState {
  readonly applied: readonly AppliedMessage[];
}

const appliedSchema = z.object({
  id: z.string().min(1).max(MAX_ID_CHARS),
  position: z.number().int().nonnegative(),
});

/** The stored value as a state; undefined when there is none (or nothing readable). */
export function parseModelFactState(value: unknown): ModelFactState | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const list = (value as { applied?: unknown }).applied;
  if (!Array.isArray(list)) return undefined;
  const applied: AppliedMessage[] = [];
  for (const entry of list) {
    const parsed = appliedSchema.safeParse(entry);
    if (parsed.success) applied.push(parsed.data);
  }
  return { ...parseFactState(value), applied };
}

/** The value to store under {@link MODEL_FACTS_MEMORY_KEY}. */
export function modelFactStateToJson(state: ModelFactState): JsonValue {
  const base = factsToJson(state.facts, state.retired) as { [key: string]: JsonValue };
  return {
    ...base,
    applied: state.applied.map((message) => ({ id: message.id, position: message.position })),
  };
}

/**
 * Whether the state holds the operations of `message`: its id is in `applied`, or `applied` is
 * full and the message is older than all it remembers (a delivery that late changes nothing).
 */
export function hasApplied(state: ModelFactState | undefined, message: AppliedMessage): boolean {
  if (state === undefined) return false;
  if (state.applied.some((applied) => applied.id === message.id)) return true;
  const oldest = state.applied[0];
  return (
    state.applied.length >= MAX_APPLIED &&
    oldest !== undefined &&
    message.position < oldest.position
  );
}

/** The applied list with `added`, one entry per id, the newest {@link MAX_APPLIED} by position. */
export function withApplied(
  applied: readonly AppliedMessage[],
  added: readonly AppliedMessage[],
): AppliedMessage[] {
  const byId = new Map<string, AppliedMessage>();
  for (const message of [...applied, ...added]) byId.set(message.id, message);
  const all = [...byId.values()].sort((a, b) => a.position - b.position);
  return all.slice(Math.max(0, all.length - MAX_APPLIED));
}
