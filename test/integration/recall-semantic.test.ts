/**
 * Optional semantic recall (migration 0009, pgvector): on PGlite with its vector extension
 * (its own embedded instance, whatever LLAMON_TEST_DB says) and a deterministic
 * OpenAI-compatible embeddings server, a paraphrase that shares no index term with the old
 * message is recalled only semantically, fused with the lexical ranks, in the turn's read
 * batch (≤ 2 round trips); never another agent's or thread's; prune and erase take the
 * vectors. On the real Postgres server (no pgvector here) 0009 is a no-op and switching
 * semantic recall on is a CONFIG_INVALID error that names the fix.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseChecks } from "../../packages/cli/src/cli/doctor/database.ts";
import { startEmbeddedPostgres } from "../../packages/cli/src/dev/embedded-postgres.ts";
import { type NeonProxy, startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { isLlamonError } from "../../src/errors.ts";
import { createOpenAiEmbedder, type Embedder } from "../../src/llm/embeddings.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { RECALL_HEADER } from "../../src/memory/prompt.ts";
import { embedAfterTurn } from "../../src/queue/embed.ts";
import type { Db } from "../../src/store/db.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { applyPrune, planPrune } from "../../src/store/prune.ts";
import { type BackendKind, backendKind, createWorkerRole } from "../helpers/backend.ts";
import { type FakeEmbeddings, startFakeEmbeddings } from "../helpers/fake-embeddings.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";
import { testAgent } from "../helpers/turn-setup.ts";

const agent = testAgent("Semantic recall agent");
const PUPPY = "My puppy is called Biscuit";
const QUESTION = "What name did I give my dog?";

interface Backend {
  dsn: string;
  proxy: NeonProxy;
  neon: Db;
  pg: Db;
  close(): Promise<void>;
}

async function startBackend(
  dsn: string,
  kind: BackendKind,
  cleanups: (() => Promise<void>)[],
): Promise<Backend> {
  await migrate({ connectionString: dsn });
  const role = await createWorkerRole(dsn, kind);
  // Runs last (cleanups run in reverse): after the database is gone.
  cleanups.unshift(() => role.drop());
  const proxy = await startNeonProxy({ upstreamDsn: dsn, poolSize: 1 });
  cleanups.push(() => proxy.close());
  const neon = createNeonDb({ connectionString: role.neonDsn, fetchEndpoint: proxy.url });
  const pg = createPgDb({ connectionString: dsn, max: 1 });
  cleanups.push(() => pg.close());
  return {
    dsn,
    proxy,
    neon,
    pg,
    async close() {
      for (const c of cleanups.reverse()) await c().catch(() => {});
    },
  };
}

function turnDeps(
  db: Db,
  agentId: string,
  embedder: Embedder | undefined,
  log = createMemoryLogger(),
): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({
      code: { window_size: 6, recall_semantic: embedder !== undefined },
    }).config,
    model: new OfflineChatModel(),
    log,
    checkpointer: new NeonSaver({ db, agentId, guardHead: true }),
    embedder,
  };
}

describe("semantic recall on PGlite with pgvector (migration 0009)", () => {
  let backend: Backend;
  let fake: FakeEmbeddings;
  let embedder: Embedder;

  beforeAll(async () => {
    const cleanups: (() => Promise<void>)[] = [];
    const dir = await mkdtemp(join(tmpdir(), "llamon-vector-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const embedded = await startEmbeddedPostgres({ dataDir: dir });
    cleanups.push(() => embedded.close());
    backend = await startBackend(embedded.dsn, "embedded", cleanups);
    fake = await startFakeEmbeddings();
    embedder = createOpenAiEmbedder({ baseUrl: fake.baseUrl, model: "concepts" });
  });
  afterAll(async () => {
    await fake?.close();
    await backend?.close();
  });

  /** One turn as the Worker runs it: the turn, then the background embedding of its transcript. */
  async function turn(agentId: string, threadId: string, text: string, semantic = true) {
    const result = await runTurn(turnDeps(backend.neon, agentId, semantic ? embedder : undefined), {
      threadId,
      text,
    });
    await embedAfterTurn({ db: backend.neon, agentId, threadId, embedder });
    return result;
  }

  async function conversation(agentId: string, threadId: string) {
    await turn(agentId, threadId, "Good morning, how is the weather today?");
    await turn(agentId, threadId, PUPPY);
    for (let i = 0; i < 10; i++) {
      await turn(agentId, threadId, `Small talk ${i}: lunch plans and the traffic downtown`);
    }
  }

  async function vectorCount(agentId: string, threadId: string): Promise<number> {
    const { rows } = await backend.pg.query<{ n: string }>(
      "SELECT count(*) AS n FROM llamon_message_vectors WHERE agent_id = $1 AND thread_id = $2",
      [agentId, threadId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  it("0009 created the extension and the vectors table on a database that has pgvector", async () => {
    const { rows } = await backend.pg.query<{ ext: string | null; table: string | null }>(
      "SELECT (SELECT extname FROM pg_extension WHERE extname = 'vector') AS ext, to_regclass('llamon_message_vectors')::text AS table",
    );
    expect(rows[0]).toEqual({ ext: "vector", table: "llamon_message_vectors" });
    const checks = await databaseChecks(backend.dsn, undefined, true);
    expect(checks.find((c) => c.name === "semantic recall")?.status).toBe("ok");
  });

  it("a paraphrase with no shared term is recalled only semantically, in the read batch (≤ 2 round trips)", async () => {
    await conversation("sem-a", "t");
    // The old message left the live tail: it is in the transcript, with a vector.
    const stored = await backend.pg.query<{ seq: string }>(
      "SELECT v.seq FROM llamon_message_vectors v JOIN llamon_messages m USING (agent_id, thread_id, seq) WHERE v.agent_id = 'sem-a' AND m.message->'kwargs'->>'content' = $1",
      [PUPPY],
    );
    expect(stored.rows.length).toBe(1);
    // Words only: nothing of the question's terms is in the old message, so no block quotes it.
    const lexical = await runTurn(turnDeps(backend.neon, "sem-a", undefined), {
      threadId: "t",
      text: QUESTION,
    });
    expect(String(lexical.lastPrompt?.messages[0]?.content)).not.toContain(PUPPY);
    backend.proxy.resetStats();
    const asked = fake.requests.length;
    const result = await runTurn(turnDeps(backend.neon, "sem-a", embedder), {
      threadId: "t",
      text: QUESTION,
    });
    expect(backend.proxy.stats.requests).toBeLessThanOrEqual(2);
    // One provider call for the question, before the read batch.
    expect(fake.requests.slice(asked)).toEqual([[QUESTION]]);
    const system = String(result.lastPrompt?.messages[0]?.content);
    expect(system).toContain(`${RECALL_HEADER}\n`);
    expect(system).toContain(`- user: "${PUPPY}"`);
  });

  it("never another agent's or thread's vectors", async () => {
    await conversation("sem-b", "other");
    await turn("sem-c", "t", "Good morning, how is the weather today?");
    for (let i = 0; i < 10; i++) {
      await turn("sem-c", "t", `Small talk ${i}: lunch plans and the traffic downtown`);
    }
    await turn("sem-b", "t", "Good morning, how is the weather today?");
    for (let i = 0; i < 10; i++) {
      await turn("sem-b", "t", `Small talk ${i}: lunch plans and the traffic downtown`);
    }
    expect(await vectorCount("sem-b", "other")).toBeGreaterThan(0);
    for (const agentId of ["sem-b", "sem-c"]) {
      const result = await runTurn(turnDeps(backend.neon, agentId, embedder), {
        threadId: "t",
        text: QUESTION,
      });
      expect(String(result.lastPrompt?.messages[0]?.content)).not.toContain(PUPPY);
    }
  });

  it("a failing provider never fails the turn: it recalls by words and a later turn embeds", async () => {
    fake.failing = true;
    const log = createMemoryLogger();
    try {
      const result = await runTurn(turnDeps(backend.neon, "sem-a", embedder, log), {
        threadId: "t",
        text: "Biscuit again?",
      });
      expect(String(result.lastPrompt?.messages[0]?.content)).toContain(`- user: "${PUPPY}"`);
      expect(log.lines.some((l) => l.line.includes("recalls by words only"))).toBe(true);
      expect(
        await embedAfterTurn({ db: backend.neon, agentId: "sem-a", threadId: "t", embedder, log }),
      ).toBe(0);
    } finally {
      fake.failing = false;
    }
  });

  it("prune and erase delete the vectors with the messages", async () => {
    for (const thread of ["erased", "pruned"]) await conversation("sem-p", thread);
    expect(await vectorCount("sem-p", "erased")).toBeGreaterThan(0);
    expect(await vectorCount("sem-p", "pruned")).toBeGreaterThan(0);
    await new NeonSaver({ db: backend.neon, agentId: "sem-p" }).deleteThread("erased");
    await applyPrune(
      backend.pg,
      await planPrune(backend.pg, { agentId: "sem-p", threadIds: ["pruned"] }),
    );
    expect(await vectorCount("sem-p", "erased")).toBe(0);
    expect(await vectorCount("sem-p", "pruned")).toBe(0);
  });

  it("a transcript row replaced in place loses its vector", async () => {
    await conversation("sem-r", "t");
    const before = await vectorCount("sem-r", "t");
    await backend.pg.query(
      `UPDATE llamon_messages SET message = jsonb_set(message, '{kwargs,content}', '"replaced"')
        WHERE agent_id = 'sem-r' AND thread_id = 't' AND seq = 0`,
    );
    expect(await vectorCount("sem-r", "t")).toBe(before - 1);
  });
});

describe.runIf(backendKind() === "server")("migration 0009 on Postgres without pgvector", () => {
  let db: TestDatabase;
  let backend: Backend;
  beforeAll(async () => {
    db = await createTestDatabase("llamon_novector");
    backend = await startBackend(db.dsn, "server", [() => db.drop()]);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("is a no-op, and semantic recall switched on is CONFIG_INVALID naming the fix", async () => {
    const { rows } = await backend.pg.query<{
      ext: string | null;
      table: string | null;
      applied: boolean;
    }>(
      `SELECT (SELECT extname FROM pg_extension WHERE extname = 'vector') AS ext,
              to_regclass('llamon_message_vectors')::text AS table,
              EXISTS (SELECT 1 FROM llamon_migrations WHERE name = '0009_recall_vectors.sql') AS applied`,
    );
    expect(rows[0]).toEqual({ ext: null, table: null, applied: true });
    // `llamon doctor` says so when the config has semantic recall on.
    const check = (await databaseChecks(backend.dsn, undefined, true)).find(
      (c) => c.name === "semantic recall",
    );
    expect(check?.status).toBe("problem");
    expect(JSON.stringify(check)).toContain("CREATE EXTENSION vector");
    const fake = await startFakeEmbeddings();
    try {
      const embedder = createOpenAiEmbedder({ baseUrl: fake.baseUrl, model: "concepts" });
      // Lexical recall goes on as before.
      await runTurn(turnDeps(backend.neon, "nv", undefined), { threadId: "t", text: PUPPY });
      const error = await runTurn(turnDeps(backend.neon, "nv", embedder), {
        threadId: "t",
        text: QUESTION,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
      expect(String((error as Error).message)).toContain("CREATE EXTENSION vector");
      // The background job says the same, and never throws.
      const log = createMemoryLogger();
      expect(
        await embedAfterTurn({ db: backend.neon, agentId: "nv", threadId: "t", embedder, log }),
      ).toBe(0);
      expect(log.lines.some((l) => l.line.includes("CREATE EXTENSION vector"))).toBe(true);
    } finally {
      await fake.close();
    }
  });
});
