/** The `llamon chat` session: the official A2A client, the contextId, the prompt loop. */
import { createInterface } from "node:readline";
import { type Message, Role, type Task } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { LlamonError } from "llamon/errors";
import { AUTH_INVALID_RPC_CODE, AUTH_REQUIRED_RPC_CODE } from "llamon/node";
import { info, warn } from "./output.ts";

export interface ChatOptions {
  contextId?: string;
  message?: string[];
  /** The A2A credential (API key or JWT), sent as `Authorization: Bearer`. */
  token?: string;
}

/** The env variable `llamon chat` reads the A2A credential from when --token is not given. */
export const A2A_TOKEN_ENV = "LLAMON_A2A_TOKEN";

/**
 * fetch with the credential on every request, through the SDK's own auth wrapper (no retry:
 * a refused key stays refused).
 */
function authenticatingFetch(token: string | undefined): typeof fetch | undefined {
  if (token === undefined) return undefined;
  return createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ authorization: `Bearer ${token}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
}

async function connect(url: string, token: string | undefined): Promise<Client> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LlamonError(
      "CONFIG_INVALID",
      `"${url}" is not a URL: give the agent's address, e.g. http://127.0.0.1:8787`,
    );
  }
  const fetchImpl = authenticatingFetch(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true }, fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true }, fetchImpl }),
    }),
  );
  const isCard = parsed.pathname.endsWith(".json");
  try {
    return isCard ? await factory.createFromUrl(url, "") : await factory.createFromUrl(url);
  } catch (error) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `cannot read the agent card at ${isCard ? url : new URL("/.well-known/agent-card.json", url).toString()}: ${describe(error)}. Is the agent running (npx llamon run .) and is this its URL?`,
      { cause: error },
    );
  }
}

function describe(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  const text = `${e.message ?? String(error)}${cause ? ` (${cause})` : ""}`;
  // A refused call: the SDK's error carries the JSON-RPC code of the agent's 401 body.
  const rpc = error as { envelopeCode?: unknown; code?: unknown };
  const code = rpc.envelopeCode ?? rpc.code;
  if (code === AUTH_REQUIRED_RPC_CODE || code === AUTH_INVALID_RPC_CODE) {
    return `${text}. Pass --token <key> or set ${A2A_TOKEN_ENV}`;
  }
  return text;
}

/** `taskId`: the input-required task this message answers (a flow between its steps). */
function userMessage(text: string, contextId: string | undefined, taskId = ""): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: contextId ?? "",
    taskId,
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: "text", value: text },
        mediaType: "text/plain",
        filename: "",
        metadata: undefined,
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function textOf(message: Message | undefined): string | undefined {
  if (message === undefined) return undefined;
  const texts = message.parts.flatMap((p) =>
    p.content?.$case === "text" ? [p.content.value] : [],
  );
  return texts.length === 0 ? undefined : texts.join("\n");
}

function isTask(result: Message | Task): result is Task {
  return "status" in result && "id" in result;
}

const STATE_NAMES: Record<number, string> = {
  1: "submitted",
  2: "working",
  3: "completed",
  4: "failed",
  5: "canceled",
  6: "input-required",
  7: "rejected",
  8: "auth-required",
};

/** The agent's reply text and the conversation it belongs to. */
function replyOf(result: Message | Task): { text: string; contextId: string; state?: string } {
  if (!isTask(result)) return { text: textOf(result) ?? "(no text)", contextId: result.contextId };
  const fromArtifact = result.artifacts
    .map((a) =>
      a.parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : [])).join("\n"),
    )
    .filter((t) => t !== "")
    .at(-1);
  const agentHistory = [...result.history].reverse().find((m) => m.role === Role.ROLE_AGENT);
  const text =
    textOf(result.status?.message) ?? fromArtifact ?? textOf(agentHistory) ?? "(no text)";
  const state = STATE_NAMES[result.status?.state ?? 0] ?? "unknown";
  return { text, contextId: result.contextId, state };
}

export async function chat(url: string, opts: ChatOptions): Promise<void> {
  const fromEnv = process.env[A2A_TOKEN_ENV]?.trim();
  const token = opts.token?.trim() || fromEnv || undefined;
  const client = await connect(url, token);
  const card = await client.getAgentCard().catch(() => undefined);
  let contextId = opts.contextId;
  const scripted = opts.message !== undefined;
  const interactive = !scripted && process.stdin.isTTY === true;
  if (card && !scripted)
    info(`connected to ${card.name}${card.description ? ` — ${card.description}` : ""}`);
  if (contextId !== undefined) info(`contextId: ${contextId} (continuing)`);
  else if (!scripted) info("new conversation (the agent assigns its contextId)");

  let announced = contextId;
  /** The task that waits for the user's answer (input-required): the next message continues it. */
  let openTask: string | undefined;
  const send = async (text: string): Promise<boolean> => {
    try {
      const result = await client.sendMessage({
        tenant: "",
        message: userMessage(text, contextId, openTask),
        configuration: undefined,
        metadata: undefined,
      });
      const reply = replyOf(result);
      if (reply.contextId) contextId = reply.contextId;
      const waits = reply.state === "input-required" && isTask(result);
      openTask = waits ? result.id : undefined;
      const failed = reply.state !== undefined && reply.state !== "completed" && !waits;
      info(`agent> ${reply.text.replaceAll("\n", "\n       ")}`);
      if (failed) warn(`(task ${reply.state})`);
      if (contextId !== undefined && contextId !== announced) {
        info(`(contextId: ${contextId})`);
        announced = contextId;
      }
      return !failed;
    } catch (error) {
      warn(`error: ${describe(error)}`);
      return false;
    }
  };

  let ok = true;
  if (scripted) {
    for (const text of opts.message ?? []) ok = (await send(text)) && ok;
  } else {
    ok = await repl(interactive, send, {
      reset: () => {
        contextId = undefined;
        openTask = undefined;
        announced = undefined;
        info("new conversation");
      },
      id: () => info(contextId === undefined ? "no contextId yet" : `contextId: ${contextId}`),
    });
  }
  if (contextId !== undefined) {
    info(`resume this conversation: npx llamon chat ${url} --context-id ${contextId}`);
  }
  if (!ok && !interactive) process.exitCode = 1;
}

async function repl(
  interactive: boolean,
  send: (text: string) => Promise<boolean>,
  commands: { reset: () => void; id: () => void },
): Promise<boolean> {
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
  });
  if (interactive) {
    info("type a message; /new, /id, /exit");
    rl.setPrompt("you> ");
    rl.prompt();
  }
  let ok = true;
  // Lines are handled one at a time, in order, even when piped in faster than replies come.
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === "/exit" || line === "/quit") break;
    if (line === "/new") commands.reset();
    else if (line === "/id") commands.id();
    else if (line === "/help")
      info("/new: new conversation · /id: show the contextId · /exit: quit");
    else if (line !== "") ok = (await send(line)) && ok;
    if (interactive) rl.prompt();
  }
  rl.close();
  if (interactive) info("");
  return ok;
}
