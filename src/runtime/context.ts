/**
 * The per-request context: built once where a request enters (the Worker's fetch and
 * queue handlers, a Durable Object RPC) and passed down explicitly — no module state, no
 * data hidden in a library's context bag.
 *
 * It carries the agent id, the validated env, the request's logger (with `agent_id`, and
 * for a turn `context_id` and `message_id`), the database handle (made on first use), the
 * request's `waitUntil` and abort signal, the caller's principal (set by the A2A
 * authentication, see {@link withPrincipal}), and the agent's MemoryConfig, resolved once per
 * request by runtime/config.ts.
 */
import { createLogger, type Logger } from "../log.ts";
import type { MemoryConfig, ResolvedMemoryConfig } from "../memory/config.ts";
import { type AgentLayers, type ConfigScope, configScope, resolveRequestConfig } from "./config.ts";
import { type Env, parseWorkerVars, type WorkerVars } from "./env.ts";
import { adoptRuntimeSettings, loadRuntimeLayer, runtimeLayerOf } from "./runtime-layer.ts";

export type WaitUntil = (promise: Promise<unknown>) => void;

export interface RequestContext extends ConfigScope {
  readonly vars: WorkerVars;
  readonly log: Logger;
  /** Keeps the isolate alive for work the request starts but does not wait for. */
  readonly waitUntil: WaitUntil | undefined;
  /** Aborts when the client goes away (where the runtime provides it). */
  readonly signal: AbortSignal | undefined;
  /**
   * Who is calling, as the A2A authentication established it (`anonymous` with
   * A2A_AUTH=none); undefined where no A2A caller is involved (management API, queue).
   */
  readonly principal: string | undefined;
  /**
   * The effective config (deploy-time layers + the run-time layer from this isolate's
   * cache), resolved once for the request; later calls return the same value.
   */
  config(): Promise<MemoryConfig>;
  /** {@link config} with the source of each key (the management API shows them). */
  resolved(): Promise<ResolvedMemoryConfig>;
  /**
   * Resolve the request's config with a run-time layer read elsewhere — the `settings` row
   * a postgres turn's read batch returned — instead of reading it. The value also refreshes
   * the isolate's cache. When the config was already resolved, that value stays.
   */
  configWith(storedSettings: unknown): Promise<MemoryConfig>;
  /** {@link config} if the request has resolved it already, else undefined (no read). */
  configIfResolved(): MemoryConfig | undefined;
}

/** The context of one turn: a request context plus the conversation and message ids. */
export interface TurnContext extends RequestContext {
  /** The conversation's thread key (opaque: what every store and object name uses). */
  readonly threadId: string;
  /** The client's contextId, for log lines only. */
  readonly contextId: string;
  readonly messageId: string;
}

export interface RequestContextOptions {
  readonly env: Env;
  /** The agent's own layers (code, registry). */
  readonly layers: AgentLayers;
  readonly waitUntil?: WaitUntil | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly principal?: string | undefined;
  /** The parent logger (default: the console); `agent_id` is added. */
  readonly log?: Logger | undefined;
  /**
   * A config already resolved for this request (a turn handed to a Durable Object by the
   * Worker): {@link RequestContext.config} returns it as is.
   */
  readonly config?: MemoryConfig | undefined;
}

export function createRequestContext(options: RequestContextOptions): RequestContext {
  const vars = parseWorkerVars(options.env);
  const scope = configScope(options.env, options.layers);
  const preset = options.config;
  let resolved: Promise<ResolvedMemoryConfig> | undefined;
  let settled: MemoryConfig | undefined = preset;
  const resolve = (runtime: Parameters<typeof resolveRequestConfig>[2]) => {
    const result = resolveRequestConfig(scope.env, scope.layers, runtime, scope.agentId);
    settled ??= result.config;
    return result;
  };
  const context: RequestContext = {
    ...scope,
    vars,
    log: (options.log ?? createLogger()).child({ agent_id: scope.agentId }),
    waitUntil: options.waitUntil,
    signal: options.signal,
    principal: options.principal,
    resolved() {
      resolved ??= loadRuntimeLayer(context).then(resolve);
      return resolved;
    },
    async config() {
      return preset ?? (await context.resolved()).config;
    },
    configWith(storedSettings) {
      resolved ??= Promise.resolve().then(() =>
        resolve(runtimeLayerOf(adoptRuntimeSettings(context, storedSettings))),
      );
      return context.config();
    },
    configIfResolved: () => settled,
  };
  return context;
}

/**
 * `request` on behalf of `principal` (the A2A authentication's result): same request, the
 * principal on every log line.
 */
export function withPrincipal(request: RequestContext, principal: string): RequestContext {
  return { ...request, principal, log: request.log.child({ principal }) };
}

/** The context of one turn of `request`: same request, the turn's ids on every log line. */
export function turnContext(
  request: RequestContext,
  ids: { threadId: string; contextId: string; messageId: string },
): TurnContext {
  return {
    ...request,
    log: request.log.child({ context_id: ids.contextId, message_id: ids.messageId }),
    threadId: ids.threadId,
    contextId: ids.contextId,
    messageId: ids.messageId,
  };
}
