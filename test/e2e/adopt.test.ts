/**
 * `llamon migrate --adopt`: threads the official PostgresSaver wrote under this
 * agent's namespace are registered (found, counted, reported); another agent's are not.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import type { Db } from "../../src/store/db.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { runLlamon } from "../helpers/cli.ts";
import { createTestDatabase, officialSaver, type TestDatabase } from "../helpers/pg.ts";

let database: TestDatabase;
let db: Db;
let official: PostgresSaver;
let folder: string;

beforeAll(async () => {
  database = await createTestDatabase("llamon_adopt_cli");
  await migrate({ connectionString: database.dsn });
  db = createPgDb({ connectionString: database.dsn });
  official = officialSaver(database.dsn);
  folder = await mkdtemp(join(tmpdir(), "llamon-adopt-"));
});

afterAll(async () => {
  await official.end();
  await db.close();
  await database.drop();
  await rm(folder, { recursive: true, force: true });
});

function office(threadId: string, text: string) {
  return new StateGraph(MessagesAnnotation)
    .addNode("office", () => ({ messages: [new AIMessage(`office: ${text}`)] }))
    .addEdge(START, "office")
    .addEdge("office", END)
    .compile({ checkpointer: official })
    .invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: threadId } });
}

const run = (args: string[]) => runLlamon(args, { env: { POSTGRES_MEMORY_DSN: "", AGENT_ID: "" } });

async function registry(agentId: string) {
  const { rows } = await db.query<{ thread_id: string; message_count: number }>(
    "SELECT thread_id, message_count FROM llamon_threads WHERE agent_id = $1 ORDER BY thread_id",
    [agentId],
  );
  return rows;
}

describe("llamon migrate --adopt", () => {
  it("registers the agent's threads written by the official saver, repairs a moved head, and reports them", async () => {
    await office("shop:alpha", "one");
    await office("shop:alpha", "two");
    await office("shop:beta", "hello");
    await office("other:gamma", "not ours");
    await runTurn(
      {
        agent: defineAgent({ name: "shop", description: "", system: "Be brief." }),
        config: resolveMemoryConfig({}).config,
        model: new OfflineChatModel(),
        checkpointer: new NeonSaver({ db, agentId: "shop", guardHead: true }),
        log: createMemoryLogger(),
      },
      { threadId: "delta", text: "from llamon" },
    );
    await office("shop:delta", "back office");

    const first = await run(["migrate", "--dsn", database.dsn, "--adopt", "--agent-id", "shop"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("registered 2 thread(s) written by another saver: alpha, beta");
    expect(first.stdout).toContain("repaired 1 thread(s) whose head another saver moved: delta");
    expect(await registry("shop")).toEqual([
      { thread_id: "alpha", message_count: 4 },
      { thread_id: "beta", message_count: 2 },
      { thread_id: "delta", message_count: 4 },
    ]);
    expect(await registry("other")).toEqual([]);

    const again = await run(["migrate", "--dsn", database.dsn, "--adopt", "--agent-id", "shop"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("registered 0 thread(s)");
    expect(again.stdout).toContain("repaired 0 thread(s)");
  });

  it("refuses an agent id that cannot be one, and registers nothing", async () => {
    const result = await run([
      "migrate",
      "--dsn",
      database.dsn,
      "--adopt",
      "--agent-id",
      "Not An Id",
    ]);
    expect(result.code, result.stdout + result.stderr).not.toBe(0);
    expect(result.stderr).toMatch(/agent/i);
    expect(await registry("Not An Id")).toEqual([]);
  });
});
