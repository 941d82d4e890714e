/**
 * `llamon memory prune --apply` erases the A2A task records too, end to end: `llamon run .`
 * (the reference agent on a Postgres database of the test server, through the Neon-protocol
 * proxy and `wrangler dev`), one A2A turn, a prune from the shell, then `tasks/get`.
 *
 * The task records live in the Worker's Durable Objects: a prune without `--url` queues
 * their erasure (and says so), `llamon memory drain --url` or `prune --apply --url` has the
 * Worker erase them, after which `tasks/get` answers -32001 (task not found).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLlamon } from "../helpers/cli.ts";
import {
  freePort,
  REPO,
  type RunningLlamon,
  startLlamonRun,
  stopLlamonRun,
} from "../helpers/llamon-run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";

const TOKEN = `prune-e2e-${crypto.randomUUID()}`;
const AGENT = "llamon-reference";

let database: TestDatabase;
let run: RunningLlamon;
let url = "";

beforeAll(async () => {
  database = await createTestDatabase("llamon_prune_tasks");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  run = await startLlamonRun([".", "--port", String(port)], {
    cwd: REPO,
    env: {
      POSTGRES_MEMORY_DSN: database.dsn,
      LLAMON_ADMIN_TOKEN: TOKEN,
      NODE_ENV: "development",
      A2A_AUTH: "",
      A2A_API_KEYS: "",
    },
    readyMs: 120_000,
    pollMs: 200,
  });
}, 150_000);

afterAll(async () => {
  if (run !== undefined) await stopLlamonRun(run.child);
  await database?.drop();
});

async function rpc(method: string, params: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** One turn; resolves to the task's id. */
async function turn(contextId: string, text: string): Promise<string> {
  const reply = await rpc("message/send", {
    message: {
      contextId,
      role: "user",
      messageId: crypto.randomUUID(),
      parts: [{ kind: "text", text }],
    },
  });
  const result = reply.result as { id?: string; kind?: string } | undefined;
  expect(result?.kind, JSON.stringify(reply)).toBe("task");
  return result?.id as string;
}

function prune(args: string[]) {
  return runLlamon(
    ["memory", "prune", "--dsn", database.dsn, "--agent-id", AGENT, "--apply", ...args],
    { cwd: REPO, env: { POSTGRES_MEMORY_DSN: "", AGENT_ID: "", LLAMON_ADMIN_TOKEN: "" } },
  );
}

describe("llamon memory prune and the A2A task records", () => {
  it("a prune from the shell queues the task records and says so; `memory drain --url` erases them; tasks/get then answers -32001", async () => {
    const secret = `my card number is 4111-${crypto.randomUUID()}`;
    const taskId = await turn("prune-e2e-1", secret);
    const before = await rpc("tasks/get", { id: taskId });
    expect(JSON.stringify(before)).toContain(secret);

    const pruned = await prune(["--thread-id", "prune-e2e-1"]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain("deleted 1 thread(s) of agent llamon-reference");
    expect(pruned.stdout).toMatch(
      /pending: the A2A task records of 1 pruned conversation\(s\) of agent llamon-reference/,
    );
    expect(pruned.stdout).toContain("npx llamon memory drain --url");
    // Not erased yet: the prune could not reach the Durable Objects, and said so.
    expect(JSON.stringify(await rpc("tasks/get", { id: taskId }))).toContain(secret);

    const drained = await runLlamon(
      ["memory", "drain", "--url", url, "--token", TOKEN, "--agent-id", AGENT, "--json"],
      { cwd: REPO, env: { LLAMON_ADMIN_TOKEN: "" } },
    );
    expect(drained.code, drained.stderr).toBe(0);
    expect(JSON.parse(drained.stdout)).toEqual({
      agent_id: AGENT,
      conversations: 1,
      tasks_erased: 1,
      pending: 0,
    });
    const after = await rpc("tasks/get", { id: taskId });
    expect((after.error as { code?: number } | undefined)?.code, JSON.stringify(after)).toBe(
      -32001,
    );
    expect(JSON.stringify(after)).not.toContain(secret);
  }, 120_000);

  it("prune --apply --url erases them at once; another conversation's task stays", async () => {
    const gone = await turn("prune-e2e-2", "forget me");
    const kept = await turn("prune-e2e-keep", "keep me");
    const pruned = await prune(["--thread-id", "prune-e2e-2", "--url", url, "--token", TOKEN]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(
      "erased the A2A task records of 1 conversation(s) in the Worker: 1 task(s)",
    );
    expect(pruned.stdout).not.toContain("pending:");
    const after = await rpc("tasks/get", { id: gone });
    expect((after.error as { code?: number } | undefined)?.code).toBe(-32001);
    const other = await rpc("tasks/get", { id: kept });
    expect(JSON.stringify(other)).toContain("keep me");
  }, 120_000);

  it("a wrong admin token fails the drain with a clear message, and the erasure stays queued", async () => {
    const taskId = await turn("prune-e2e-3", "still here");
    const pruned = await prune(["--thread-id", "prune-e2e-3", "--url", url, "--token", "wrong"]);
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toMatch(/did not erase the task records \(401\)/);
    expect(pruned.stdout).toMatch(/pending: the A2A task records of 1 pruned conversation/);
    expect(JSON.stringify(await rpc("tasks/get", { id: taskId }))).toContain("still here");
    const drained = await runLlamon(["memory", "drain", "--url", url, "--token", TOKEN], {
      cwd: REPO,
      env: { LLAMON_ADMIN_TOKEN: "" },
    });
    expect(drained.code, drained.stderr).toBe(0);
    expect(drained.stdout).toContain("erased the A2A task records of 1 conversation(s)");
    expect(((await rpc("tasks/get", { id: taskId })).error as { code?: number }).code).toBe(-32001);
  }, 120_000);
});
