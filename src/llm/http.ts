/**
 * The one HTTP call of the model adapters: POST JSON with a timeout, and turn every
 * failure into a LlamonError whose message says the fix. Runs in Workers (fetch,
 * AbortSignal only). The API key never appears in a message: the provider's own error
 * text is included (clipped) with any occurrence of the key replaced.
 *
 * Codes: a rejected key (401/403) and a wrong model or URL (404) are CONFIG_INVALID —
 * the operator fixes them in configuration. Everything else (provider busy, timeout,
 * unreachable, a malformed answer) uses {@link MODEL_FAILURE_CODE}; `details.reason` and
 * `details.retryable` tell the edges which it was.
 */
import { type ErrorCode, LlamonError } from "../errors.ts";
import { type SseEvent, sseEvents } from "./sse.ts";

/**
 * The code of model failures that are not configuration mistakes. A2A clients get it as
 * JSON-RPC -32050 with `data.retryable` from `details.retryable` (runtime/errors.ts).
 */
export const MODEL_FAILURE_CODE: ErrorCode = "MODEL_FAILED";

export type ModelFailureReason =
  | "auth"
  | "not_found"
  | "rate_limited"
  | "unavailable"
  | "bad_request"
  | "timeout"
  | "network"
  | "bad_response";

export interface ModelErrorDetails {
  provider: string;
  reason: ModelFailureReason;
  retryable: boolean;
  status?: number;
  /** The provider's own error message (clipped, key redacted). */
  providerMessage?: string;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 120_000;

export interface PostJsonInput {
  /** Provider name used in messages, e.g. "openai-compatible". */
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Redacted from every error message. */
  apiKey?: string | undefined;
  /** The variable the key comes from, named in 401/403 messages. */
  apiKeyEnvVar: string;
  /** The variable that sets the base URL, named in 404 messages. */
  baseUrlEnvVar?: string | undefined;
  /** The model name, named in 404 messages. */
  model: string;
  timeoutMs: number;
  /** The caller's signal (LangChain call options); its abort is passed through as is. */
  signal?: AbortSignal | undefined;
  fetch?: FetchLike | undefined;
}

/** POST `body` as JSON and return the parsed JSON answer, or throw a LlamonError. */
export async function postJson(input: PostJsonInput): Promise<unknown> {
  const { response, timeout } = await send(input);
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw transportError(input, timeout, error);
  }
  if (!response.ok) throw httpError(input, response.status, text);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw modelError(
      input,
      "bad_response",
      `${input.provider}: ${safeUrl(input.url)} answered HTTP ${response.status} with something that is not JSON: ${clip(redact(text, input.apiKey))}`,
      { cause: error, status: response.status },
    );
  }
}

/**
 * POST `body` as JSON and read the answer as server-sent events (the provider streams), or
 * throw a LlamonError — for a refused request before the first event, as {@link postJson}
 * does; for a connection lost or a timeout while the events arrive, when that happens. The
 * timeout covers the whole stream.
 */
export async function* postSse(input: PostJsonInput): AsyncGenerator<SseEvent> {
  const { response, timeout } = await send(input);
  if (!response.ok) {
    let text = "";
    try {
      text = await response.text();
    } catch {
      // the status says enough
    }
    throw httpError(input, response.status, text);
  }
  if (response.body === null) {
    throw modelError(
      input,
      "bad_response",
      `${input.provider}: ${safeUrl(input.url)} answered HTTP ${response.status} with no body`,
      { status: response.status },
    );
  }
  try {
    yield* sseEvents(response.body);
  } catch (error) {
    throw transportError(input, timeout, error);
  }
}

/** The request; a failure to get an answer's head is a LlamonError. */
async function send(input: PostJsonInput): Promise<{ response: Response; timeout: AbortSignal }> {
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  const doFetch: FetchLike = input.fetch ?? ((url, init) => fetch(url, init));
  try {
    const response = await doFetch(input.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...input.headers },
      body: JSON.stringify(input.body),
      signal,
    });
    return { response, timeout };
  } catch (error) {
    throw transportError(input, timeout, error);
  }
}

/**
 * A failure of the connection (before or while the answer arrived). The caller's own abort
 * is passed through as is; a LlamonError (raised while reading) too.
 */
function transportError(input: PostJsonInput, timeout: AbortSignal, error: unknown): unknown {
  if (input.signal?.aborted || error instanceof LlamonError) return error;
  if (timeout.aborted) {
    return modelError(
      input,
      "timeout",
      `${input.provider}: no answer from ${safeUrl(input.url)} within ${input.timeoutMs} ms (model ${input.model}); try again, or raise LLM_TIMEOUT_MS`,
      { cause: error },
    );
  }
  return modelError(
    input,
    "network",
    `${input.provider}: could not reach ${safeUrl(input.url)}: ${redact(errorText(error), input.apiKey)}; check ${input.baseUrlEnvVar ?? "the base URL"} and that the server is running`,
    { cause: error },
  );
}

function httpError(input: PostJsonInput, status: number, body: string): LlamonError {
  const said = providerMessage(body, input.apiKey);
  const suffix = said ? ` — provider said: ${said}` : "";
  const where = `${input.provider} (HTTP ${status} from ${safeUrl(input.url)})`;
  const extra = { status, providerMessage: said };
  if (status === 401 || status === 403) {
    const fix = input.apiKey
      ? `the API key was rejected: check ${input.apiKeyEnvVar}`
      : `no API key was sent: set ${input.apiKeyEnvVar}`;
    return new LlamonError<ModelErrorDetails>("CONFIG_INVALID", `${where}: ${fix}${suffix}`, {
      details: { provider: input.provider, reason: "auth", retryable: false, ...extra },
    });
  }
  if (status === 404) {
    const fix = `model "${input.model}" or the base URL is wrong: check LLM_MODEL and ${input.baseUrlEnvVar ?? "the base URL"}`;
    return new LlamonError<ModelErrorDetails>("CONFIG_INVALID", `${where}: ${fix}${suffix}`, {
      details: { provider: input.provider, reason: "not_found", retryable: false, ...extra },
    });
  }
  if (status === 429) {
    return modelError(
      input,
      "rate_limited",
      `${where}: the provider is busy or the rate limit was reached; try again shortly${suffix}`,
      extra,
    );
  }
  if (status >= 500 || status === 408) {
    return modelError(
      input,
      "unavailable",
      `${where}: the provider is busy or unavailable; try again shortly${suffix}`,
      extra,
    );
  }
  return modelError(input, "bad_request", `${where}: the request was refused${suffix}`, extra);
}

/** A model failure that is not a configuration mistake (see MODEL_FAILURE_CODE). */
export function modelError(
  input: { provider: string; apiKey?: string | undefined },
  reason: ModelFailureReason,
  message: string,
  extra: { cause?: unknown; status?: number; providerMessage?: string | undefined } = {},
): LlamonError<ModelErrorDetails> {
  const retryable = reason === "rate_limited" || reason === "unavailable" || reason === "timeout";
  const details: ModelErrorDetails = { provider: input.provider, reason, retryable };
  if (extra.status !== undefined) details.status = extra.status;
  if (extra.providerMessage) details.providerMessage = extra.providerMessage;
  return new LlamonError<ModelErrorDetails>(
    MODEL_FAILURE_CODE,
    redact(message, input.apiKey),
    extra.cause === undefined ? { details } : { details, cause: extra.cause },
  );
}

/** The error text of a provider's answer: OpenAI, Anthropic, FastAPI and plain shapes. */
export function providerMessage(body: string, apiKey?: string): string | undefined {
  let text = body.trim();
  try {
    const parsed: unknown = JSON.parse(body);
    const found = findMessage(parsed);
    if (found) text = found;
  } catch {
    // not JSON: use the text itself
  }
  return text ? clip(redact(text, apiKey)) : undefined;
}

function findMessage(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  for (const key of ["error", "message", "detail", "errors"]) {
    const inner = v[key];
    if (Array.isArray(inner)) {
      const texts = inner.map(findMessage).filter((t): t is string => !!t);
      if (texts.length > 0) return texts.join("; ");
    } else {
      const found = findMessage(inner);
      if (found) return found;
    }
  }
  return undefined;
}

/** Replace every occurrence of the key with `***`. */
export function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join("***");
}

/** The URL without credentials or query string, for messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

export function clip(text: string, max = 500): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
