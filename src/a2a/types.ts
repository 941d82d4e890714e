/**
 * The contract between the A2A surface (this module) and the agent turn behind it. The
 * Worker wiring supplies `execute` (one turn of one conversation) and a durable TaskStore.
 */
import type { Part } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import type { Context } from "hono";
import type { Logger } from "../log.ts";
import type { A2AAuthConfig } from "../runtime/auth-config.ts";
import type { RateLimiterBinding } from "../runtime/env.ts";
import type { A2ACaller } from "./auth/authenticate.ts";

/** One user message, normalised from either protocol version. */
export interface A2ATurnInput {
  /** The conversation: the client's `message.contextId`, or a fresh UUID (R2.2). */
  contextId: string;
  /** Who is calling (`anonymous` with A2A_AUTH=none). */
  principal: string;
  /**
   * The conversation's thread key, `threadKey(principal, contextId)`: what the turn stores
   * the thread under, so another principal sending the same contextId never reaches it.
   */
  threadId: string;
  /** The client's `message.messageId`, or a UUID filled in when the body omits it. */
  messageId: string;
  /** The A2A task this turn answers (new per message unless the client named one). */
  taskId: string;
  /** True when the message continues a stored task (it named an `input-required` one). */
  continuesTask?: boolean;
  /** The text parts of the user message joined with "\n" (non-text parts are ignored). */
  text: string;
  /**
   * `params.metadata.history` exactly as received (R5). Only its shape (an array of objects)
   * is checked here; the seed rules are applied by the turn. Absent when the client sent none.
   */
  history?: unknown;
  /**
   * Streams a progress note to the client while the turn runs (a `working` status update
   * carrying `text`); only streaming sends publish it, blocking sends ignore it.
   */
  progress?: (text: string) => void;
  /**
   * Streams the reply text to the client as the model writes it (`artifact-update` chunks of
   * the reply artifact); only streaming sends have it. `restart`: the piece replaces what was
   * streamed before (a new model call of the turn: after a tool call, or a repeated run).
   */
  replyText?: (piece: { text: string; restart: boolean }) => void;
}

export interface A2ATurnOutput {
  /** The agent's reply text. */
  reply: string;
  /**
   * What happened to `metadata.history` (R5.2: rejected items are reported). Returned to the
   * client as `metadata.seed_report` of the task; must be JSON-serialisable.
   */
  seedReport?: unknown;
  /**
   * The agent waits for the user's answer (a flow between its steps): the task is
   * `input-required` instead of `completed`, and the client continues it by sending its next
   * message with this task's `taskId` (and contextId).
   */
  inputRequired?: boolean;
  /**
   * The turn ran a flow: a task of the same context still `input-required` (its question was
   * answered by this message, sent without its taskId) is completed, pointing at this task.
   */
  flow?: boolean;
  /**
   * The parts of the reply artifact (A2A 1.0 parts: text, raw bytes, url or data, with their
   * media type and file name) instead of the reply text. The reply text stays the message of
   * the task's final status.
   */
  artifactParts?: Part[];
  /**
   * Answer a blocking send with a Message (the reply text) instead of a Task: nothing is kept
   * as a task. A streaming send still completes its task (its stream has already announced
   * one), with the reply as the final status message.
   */
  message?: boolean;
}

/**
 * Runs one turn. Throw a LlamonError to answer with the JSON-RPC error of its code (the
 * table in runtime/errors.ts: INPUT_INVALID → -32602 with its message, MODEL_FAILED →
 * -32050, THREAD_CONFLICT, DB_* and anything else → -32603 with a safe message; `data`
 * names the code and whether a retry can succeed). `signal` aborts when the task is canceled,
 * or when the client of a blocking send goes away (a streaming send's turn goes on and is
 * stored when its client leaves); `request` is the caller's per-request context
 * ({@link A2AAppOptions.request}).
 */
export type ExecuteTurn<R = unknown> = (
  input: A2ATurnInput,
  signal: AbortSignal | undefined,
  request: R,
) => Promise<A2ATurnOutput>;

export interface A2ASkillOptions {
  id: string;
  name: string;
  description: string;
  tags?: string[];
  examples?: string[];
}

export interface A2ACardOptions {
  name: string;
  description: string;
  /** The agent's own version (not the protocol version). */
  version: string;
  /**
   * The JSON-RPC endpoint advertised in the card. Default: the origin of the card request plus
   * the path the app is mounted at, ending in "/".
   */
  url?: string;
  /** Default: one "conversation" skill described by `description`. */
  skills?: A2ASkillOptions[];
  provider?: { organization: string; url: string };
  documentationUrl?: string;
}

export interface A2AAppOptions<R = undefined> {
  card: A2ACardOptions;
  execute: ExecuteTurn<R>;
  /**
   * Where tasks live so `tasks/get` works from any isolate (see KvTaskStore): one store, or
   * one per request made from the request's context (an app built once per isolate whose
   * store depends on the request's env).
   */
  taskStore: TaskStore | ((request: R) => TaskStore);
  /**
   * The caller's per-request context, built once per HTTP request from the Hono context and
   * the authenticated caller, and handed to `execute` and `taskStore` (default: undefined).
   */
  request?: (c: Context, caller: A2ACaller) => R;
  /**
   * Who may call, per request (runtime/auth-config.ts; it may throw CONFIG_INVALID, which
   * refuses the call). Default: `none` — every caller is `anonymous`.
   */
  auth?: (c: Context) => A2AAuthConfig;
  /** The per-principal rate limiter, when one is bound (429 when it says no). */
  rateLimit?: (c: Context) => { binding: RateLimiterBinding; periodSeconds: number } | undefined;
  /** The logger of a request before it is authenticated (default: `log`). */
  guardLog?: (c: Context) => Logger;
  /** Requests with a larger body are refused with HTTP 413 before parsing. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The logger of the app; default: the console. */
  log?: Logger;
  /** The logger of one request (e.g. with the agent id); default: `log`. */
  requestLog?: (request: R) => Logger;
}
