import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { type AgentCard, type Message, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
} from "@a2a-js/sdk/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLlamon } from "../helpers/cli.ts";

const _BIN = resolve(import.meta.dirname, "../../packages/cli/dist/cli/bin.js");

function run(args: string[], stdin?: string) {
  return runLlamon(args, stdin === undefined ? {} : { input: stdin });
}

function text(message: Message): string {
  return message.parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("");
}

/** Remembers every user text per contextId and answers with what it has seen. */
class RememberingExecutor implements AgentExecutor {
  readonly seen = new Map<string, string[]>();
  /** The task id of each user text ("ask …" texts answer input-required, like a flow's step). */
  readonly tasks = new Map<string, string>();

  execute: AgentExecutor["execute"] = async (ctx, bus) => {
    const said = text(ctx.userMessage);
    this.tasks.set(said, ctx.taskId);
    const earlier = this.seen.get(ctx.contextId) ?? [];
    this.seen.set(ctx.contextId, [...earlier, said]);
    const reply: Message = {
      messageId: crypto.randomUUID(),
      contextId: ctx.contextId,
      taskId: ctx.taskId,
      role: Role.ROLE_AGENT,
      parts: [
        {
          content: {
            $case: "text",
            value: `you said "${said}"; earlier: ${earlier.length === 0 ? "(nothing)" : earlier.join(" | ")}`,
          },
          mediaType: "text/plain",
          filename: "",
          metadata: undefined,
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.task({
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: {
          state: said.startsWith("ask ")
            ? TaskState.TASK_STATE_INPUT_REQUIRED
            : TaskState.TASK_STATE_COMPLETED,
          message: reply,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [...(ctx.task?.history ?? [ctx.userMessage]), reply],
        metadata: undefined,
      }),
    );
    bus.finished();
  };

  cancelTask: AgentExecutor["cancelTask"] = async () => {};
}

let server: Server;
let url: string;
const executor = new RememberingExecutor();

beforeAll(async () => {
  server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: "Stub agent",
    description: "remembers by contextId",
    version: "1.0.0",
    supportedInterfaces: [
      { url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    documentationUrl: undefined,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  } as unknown as AgentCard;
  const handler = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, new InMemoryTaskStore(), executor),
  );
  server.on("request", async (req, res) => {
    if (req.method === "GET" && req.url === "/.well-known/agent-card.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(card));
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const context = new ServerCallContext({
      requestedVersion: "1.0",
      user: new UnauthenticatedUser(),
    });
    const result = await handler.handle(JSON.parse(body) as Record<string, unknown>, context);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(result));
  });
});

afterAll(async () => {
  server.close();
});

describe("llamon chat", () => {
  it("R2.2 holds a conversation over lines from stdin and prints the contextId the agent assigned", async () => {
    const { code, stdout } = await run(["chat", url], "my name is Mina\nwhat is my name?\n/exit\n");
    expect(code).toBe(0);
    const contextId = /\(contextId: ([^)]+)\)/.exec(stdout)?.[1] as string;
    expect(contextId).toBeTruthy();
    expect(stdout).toContain('agent> you said "my name is Mina"; earlier: (nothing)');
    expect(stdout).toContain('agent> you said "what is my name?"; earlier: my name is Mina');
    expect(stdout).toContain(
      `resume this conversation: npx llamon chat ${url} --context-id ${contextId}`,
    );
    expect(executor.seen.get(contextId)).toEqual(["my name is Mina", "what is my name?"]);
  });

  it("R2.1 --context-id resumes a conversation; --message sends and exits", async () => {
    const first = await run([
      "chat",
      url,
      "--context-id",
      "user-alice-session",
      "-m",
      "안녕하세요",
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('agent> you said "안녕하세요"; earlier: (nothing)');
    const second = await run([
      "chat",
      url,
      "--context-id",
      "user-alice-session",
      "-m",
      "이전에 뭐 얘기했지?",
    ]);
    expect(second.stdout).toContain('you said "이전에 뭐 얘기했지?"; earlier: 안녕하세요');
    expect(executor.seen.get("user-alice-session")).toEqual(["안녕하세요", "이전에 뭐 얘기했지?"]);
  });

  it("an input-required task (a flow between its steps) is answered by continuing it, not a failure", async () => {
    const { code, stdout, stderr } = await run(["chat", url, "-m", "ask city", "-m", "Busan"]);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain("(task input-required)");
    expect(stdout).toContain('agent> you said "Busan"; earlier: ask city');
    expect(executor.tasks.get("Busan")).toBe(executor.tasks.get("ask city"));
  });

  it("/new starts a new conversation in the same session", async () => {
    const { stdout } = await run(["chat", url], "first\n/new\nsecond\n");
    const ids = [...stdout.matchAll(/\(contextId: ([^)]+)\)/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
    expect(stdout).toContain('you said "second"; earlier: (nothing)');
  });

  it("says what to do when no agent answers, exit 1, no stack trace", async () => {
    const { code, stderr } = await run(["chat", "http://127.0.0.1:9"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /cannot read the agent card at http:\/\/127\.0\.0\.1:9\/\.well-known\/agent-card\.json/,
    );
    expect(stderr).toContain("npx llamon run .");
    expect(stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    const bad = await run(["chat", "not a url"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not a URL");
  });
});
