/**
 * Who owns a conversation: (AGENT_ID, principal, contextId). Below the A2A and management
 * boundaries a conversation is one opaque string, its thread key (LangGraph `thread_id`,
 * `persistent_memory.thread_id`, `llamon_threads.thread_id`, Durable Object names, queue
 * jobs); only a2a/, admin/ and the CLI make or read keys, with the functions here.
 *
 * - principal `anonymous` → the contextId itself. Conversations stored before
 *   authentication existed (and threads written by LangGraph's own PostgresSaver) are
 *   anonymous conversations and keep working unchanged.
 * - any other principal → `"\u001f" + principal + "\u001f" + contextId`. Neither a
 *   principal nor a contextId may contain control characters, so the separator never
 *   occurs inside either and the key decodes back to exactly one (principal, contextId).
 *
 * Limits: principals 1–200 characters, contextIds 1–256 (UTF-16 code units, as JavaScript
 * counts them), so a key is at most 458 characters, within the 512 the stores accept.
 */
import type { KeyScope } from "../store/thread-key.ts";

export { inKeyScope, type KeyScope } from "../store/thread-key.ts";

/** The principal of a caller that did not authenticate (A2A_AUTH=none) and of old threads. */
export const ANONYMOUS_PRINCIPAL = "anonymous";
export const MAX_PRINCIPAL_CHARS = 200;
export const MAX_CONTEXT_ID_CHARS = 256;

const SEPARATOR = "\u001f";

// C0 controls, DEL and C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The one rule for an id a client names and storage keeps (contextIds, principals, A2A
 * messageIds and task ids): why `text` cannot be one of up to `max` characters, or undefined
 * when it can. Postgres text holds no NUL and UTF-8 no unpaired surrogate, and a control
 * character could forge the thread-key separator; so such an id is the caller's mistake,
 * refused up front on every backend alike.
 */
export function idTextProblem(text: string, max: number): string | undefined {
  if (text.length === 0) return "must not be empty";
  if (text.length > max) return `must be at most ${max} characters`;
  if (CONTROL_RE.test(text)) return "must not contain control characters";
  if (LONE_SURROGATE_RE.test(text)) return "must not contain unpaired surrogates (invalid Unicode)";
  return undefined;
}

/** Why `contextId` is not acceptable (1–256 characters, no control characters), or undefined. */
export function contextIdProblem(contextId: string): string | undefined {
  return idTextProblem(contextId, MAX_CONTEXT_ID_CHARS);
}

/** Why `principal` is not acceptable (1–200 characters, no control characters), or undefined. */
export function principalProblem(principal: string): string | undefined {
  return idTextProblem(principal, MAX_PRINCIPAL_CHARS);
}

/** The thread key of (principal, contextId); both must be valid (see the file header). */
export function threadKey(principal: string, contextId: string): string {
  return principal === ANONYMOUS_PRINCIPAL
    ? contextId
    : `${SEPARATOR}${principal}${SEPARATOR}${contextId}`;
}

/** The owner of a thread key: who and which of their conversations. */
export interface ThreadOwner {
  readonly principal: string;
  readonly contextId: string;
}

/** The (principal, contextId) of a thread key made by {@link threadKey}. */
export function decodeThreadKey(key: string): ThreadOwner {
  if (key.startsWith(SEPARATOR)) {
    const end = key.indexOf(SEPARATOR, 1);
    if (end > 1) return { principal: key.slice(1, end), contextId: key.slice(end + 1) };
  }
  return { principal: ANONYMOUS_PRINCIPAL, contextId: key };
}

/** The thread keys of one principal, as a filter a store can apply (see store/thread-key.ts). */
export function principalKeyScope(principal: string): KeyScope {
  return principal === ANONYMOUS_PRINCIPAL
    ? { notPrefix: SEPARATOR }
    : { prefix: `${SEPARATOR}${principal}${SEPARATOR}` };
}
