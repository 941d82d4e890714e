/**
 * The contract between the A2A surface (this module) and the agent turn behind it. The
 * Worker wiring supplies `execute` (one turn of one conversation) and a durable TaskStore.
 */
import type { TaskStore } from "@a2a-js/sdk/server";
import type { Logger } from "../log.ts";

/** One user message, normalised from either protocol version. */
export interface A2ATurnInput {
  /** The conversation: the client's `message.contextId`, or a fresh UUID (R2.2). */
  contextId: string;
  /** The client's `message.messageId`, or a UUID filled in when the body omits it. */
  messageId: string;
  /** The A2A task this turn answers (new per message unless the client named one). */
  taskId: string;
  /** The text parts of the user message joined with "\n" (non-text parts are ignored). */
  text: string;
  /**
   * `params.metadata.history` exactly as received (R5). Only its shape (an array of objects)
   * is checked here; the seed rules are applied by the turn. Absent when the client sent none.
   */
  history?: unknown;
  /**
   * Keeps the request's isolate alive for work the turn starts but does not wait for (the
   * Worker's `ctx.waitUntil`); undefined outside workerd.
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

export interface A2ATurnOutput {
  /** The agent's reply text. */
  reply: string;
  /**
   * What happened to `metadata.history` (R5.2: rejected items are reported). Returned to the
   * client as `metadata.seed_report` of the task; must be JSON-serialisable.
   */
  seedReport?: unknown;
}

/**
 * Runs one turn. Throw a LlamonError to answer with a mapped JSON-RPC error (INPUT_INVALID →
 * -32602 with its message; THREAD_CONFLICT, DB_* and anything else → -32603 with a safe
 * message). `signal` aborts when the client goes away or the task is canceled.
 */
export type ExecuteTurn = (input: A2ATurnInput, signal?: AbortSignal) => Promise<A2ATurnOutput>;

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

export interface A2AAppOptions {
  card: A2ACardOptions;
  execute: ExecuteTurn;
  /** Where tasks live so `tasks/get` works from any isolate (see KvTaskStore). */
  taskStore: TaskStore;
  /** Requests with a larger body are refused with HTTP 413 before parsing. Default 1 MiB. */
  maxBodyBytes?: number;
  log?: Logger;
}
