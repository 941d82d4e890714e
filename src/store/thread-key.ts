/**
 * Threads are owned by agents (R2.3): the checkpoint tables' `thread_id` column holds
 * `<agent_id>:<thread_id>`, so two agents sharing a database never share a thread.
 * Agent ids cannot contain ':' (checked here and by the database), so the mapping is 1:1.
 *
 * A thread id here is opaque: the thread key the A2A and management layers made from the
 * caller's principal and contextId (runtime/thread-keys.ts). Nothing in store/ reads it.
 */
import { LlamonError } from "../errors.ts";

export const AGENT_ID_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** Longest thread id (a thread key: principal + contextId + 2 separators fit). */
export const MAX_THREAD_ID_LENGTH = 512;

export function assertAgentId(agentId: string): void {
  if (!AGENT_ID_RE.test(agentId)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `AGENT_ID "${agentId}" is not valid: use 1–63 lowercase letters, digits, '-' or '_', starting with a letter or digit`,
    );
  }
}

export function assertThreadId(threadId: unknown): asserts threadId is string {
  if (
    typeof threadId !== "string" ||
    threadId.length === 0 ||
    threadId.length > MAX_THREAD_ID_LENGTH
  ) {
    throw new LlamonError(
      "INPUT_INVALID",
      `thread_id must be a non-empty string of at most ${MAX_THREAD_ID_LENGTH} characters`,
    );
  }
}

export function storageThreadId(agentId: string, threadId: string): string {
  return `${agentId}:${threadId}`;
}

/** The contextId of a storage thread id of this agent, or undefined if it is not this agent's. */
export function threadIdFromStorage(agentId: string, storageId: string): string | undefined {
  const prefix = `${agentId}:`;
  return storageId.startsWith(prefix) ? storageId.slice(prefix.length) : undefined;
}

/**
 * A set of thread keys as a store can filter them without reading them: keys starting with
 * `prefix`, and/or NOT starting with `notPrefix` (runtime/thread-keys.ts makes one per
 * principal; SQL applies the same rule with starts_with).
 */
export interface KeyScope {
  readonly prefix?: string | undefined;
  readonly notPrefix?: string | undefined;
}

/** True when `key` is in `scope` (every key when scope is undefined). */
export function inKeyScope(key: string, scope: KeyScope | undefined): boolean {
  if (scope === undefined) return true;
  if (scope.prefix !== undefined && !key.startsWith(scope.prefix)) return false;
  if (scope.notPrefix !== undefined && key.startsWith(scope.notPrefix)) return false;
  return true;
}
