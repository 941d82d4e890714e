import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import {
  defaultMigrationsDir,
  loadMigrations,
  type MigrateResult,
  migrate,
} from "../../packages/cli/src/store/migrate.ts";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { isLlamonError, type LlamonError } from "../../src/errors.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { threadKey } from "../../src/runtime/thread-keys.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createFreshDatabase, officialSaver, type TestDatabase } from "../helpers/pg.ts";

const onServer = (process.env.LLAMON_TEST_DB ?? "server") !== "embedded";
const databases: TestDatabase[] = [];
const tempDirs: string[] = [];

async function freshDb(): Promise<TestDatabase> {
  const db = await createFreshDatabase("llamon_migrate");
  databases.push(db);
  return db;
}

/** A temp copy of the real migrations folder, plus `extra` files written into it. */
async function migrationsCopy(extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "llamon-migrations-"));
  tempDirs.push(dir);
  await cp(defaultMigrationsDir(), dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) await writeFile(join(dir, name), sql);
  return dir;
}

async function withClient<T>(dsn: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function tableExists(dsn: string, table: string): Promise<boolean> {
  return withClient(dsn, async (c) => {
    const r = await c.query("SELECT to_regclass($1) IS NOT NULL AS ok", [`public.${table}`]);
    return r.rows[0].ok === true;
  });
}

/** Columns, indexes and constraints of the public schema, as one comparable text. */
async function schemaSnapshot(dsn: string): Promise<string> {
  return withClient(dsn, async (c) => {
    const columns = await c.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public'
        ORDER BY table_name, column_name`,
    );
    const indexes = await c.query(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
    );
    const constraints = await c.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
    );
    return JSON.stringify([columns.rows, indexes.rows, constraints.rows]);
  });
}

async function primaryKey(dsn: string, table: string): Promise<string | undefined> {
  return withClient(dsn, async (c) => {
    const r = await c.query(
      `SELECT indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename = $1 AND indexname = $1 || '_pkey'`,
      [table],
    );
    const def: unknown = r.rows[0]?.indexdef;
    return typeof def === "string" ? /\((.*)\)$/.exec(def)?.[1] : undefined;
  });
}

async function appliedNames(dsn: string): Promise<string[]> {
  return withClient(dsn, async (c) => {
    const r = await c.query<{ name: string }>("SELECT name FROM llamon_migrations ORDER BY name");
    return r.rows.map((row) => row.name);
  });
}

async function expectLlamonError(promise: Promise<unknown>): Promise<LlamonError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLlamonError(error)) throw new Error(`expected a LlamonError, got ${String(error)}`);
  return error;
}

let allFiles: string[];

beforeAll(async () => {
  allFiles = (await loadMigrations()).map((f) => f.name);
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
  await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("migration files", () => {
  it("R4.1 ships ordered, well-named SQL files with sha256 checksums", async () => {
    const files = await loadMigrations();
    expect(files.map((f) => f.name).slice(0, 2)).toEqual([
      "0001_langgraph_checkpoints.sql",
      "0002_llamon_memory.sql",
    ]);
    for (const f of files) {
      expect(f.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(f.sql.startsWith("--")).toBe(true);
    }
  });

  it("R4.1 rejects badly named migration files with CONFIG_INVALID naming the file", async () => {
    for (const bad of ["1_init.sql", "0003_Add-Index.sql", "0003.sql"]) {
      const dir = await migrationsCopy({ [bad]: "SELECT 1;" });
      const error = await expectLlamonError(loadMigrations(dir));
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toContain(bad);
      // migrate() validates the folder before it touches the database.
      const viaMigrate = await expectLlamonError(
        migrate({ connectionString: "postgresql://nobody@localhost:1/none", dir }),
      );
      expect(viaMigrate.code).toBe("CONFIG_INVALID");
    }
    const dup = await migrationsCopy({ "0002_other.sql": "SELECT 1;" });
    const error = await expectLlamonError(loadMigrations(dup));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("0002_other.sql");
  });
});

describe("migrate() on a real Postgres", () => {
  it("R4.1 creates the LangGraph checkpoint tables, persistent_memory and llamon_threads", async () => {
    const db = await freshDb();
    const lines: string[] = [];
    const result = await migrate({ connectionString: db.dsn, log: (l) => lines.push(l) });
    expect(result).toEqual({ applied: allFiles, alreadyApplied: [] });
    expect(lines).toHaveLength(allFiles.length);
    expect(await appliedNames(db.dsn)).toEqual(allFiles);

    expect(await primaryKey(db.dsn, "checkpoint_migrations")).toBe("v");
    expect(await primaryKey(db.dsn, "checkpoints")).toBe("thread_id, checkpoint_ns, checkpoint_id");
    expect(await primaryKey(db.dsn, "checkpoint_blobs")).toBe(
      "thread_id, checkpoint_ns, channel, version",
    );
    expect(await primaryKey(db.dsn, "checkpoint_writes")).toBe(
      "thread_id, checkpoint_ns, checkpoint_id, task_id, idx",
    );
    expect(await primaryKey(db.dsn, "persistent_memory")).toBe("agent_id, thread_id, key");
    expect(await primaryKey(db.dsn, "llamon_threads")).toBe("agent_id, thread_id");

    await withClient(db.dsn, async (c) => {
      const versions = await c.query("SELECT v FROM checkpoint_migrations ORDER BY v");
      expect(versions.rows.map((r) => r.v)).toEqual([0, 1, 2, 3, 4]);
      const blob = await c.query(
        `SELECT is_nullable FROM information_schema.columns
          WHERE table_name = 'checkpoint_blobs' AND column_name = 'blob'`,
      );
      expect(blob.rows[0].is_nullable).toBe("YES");
      const idx = await c.query(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'llamon_threads_agent_activity_idx'",
      );
      expect(idx.rows[0].indexdef).toContain("(agent_id, last_activity_at DESC)");
      // Lookups by storage id have a plain index; its uniqueness comes from the primary key
      // and the CHECKs (0013: a second UNIQUE made concurrent first turns fail).
      const storage = await c.query(
        `SELECT indexdef FROM pg_indexes
          WHERE tablename = 'llamon_threads' AND indexdef LIKE '%(storage_thread_id)'`,
      );
      expect(storage.rows.map((r) => r.indexdef)).toEqual([
        expect.stringMatching(/^CREATE INDEX llamon_threads_storage_thread_idx /),
      ]);
    });
  });

  it("R4.1 llamon_threads and persistent_memory reject malformed rows (CHECK constraints)", async () => {
    const db = await freshDb();
    await migrate({ connectionString: db.dsn });
    await withClient(db.dsn, async (c) => {
      const insertThread = (agent: string, thread: string, storage: string) =>
        c.query(
          "INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id) VALUES ($1, $2, $3)",
          [agent, thread, storage],
        );
      await insertThread("agent-a", "ctx-1", "agent-a:ctx-1");
      const rejected = [
        ["", "ctx", ":ctx"],
        ["a:b", "ctx", "a:b:ctx"],
        ["agent-a", "", "agent-a:"],
        ["agent-a", "x".repeat(513), `agent-a:${"x".repeat(513)}`],
        ["agent-a", "ctx-2", "agent-b:ctx-2"],
      ] as const;
      for (const [agent, thread, storage] of rejected) {
        await expect(insertThread(agent, thread, storage)).rejects.toMatchObject({
          code: "23514",
        });
      }
      await c.query(
        `INSERT INTO persistent_memory (agent_id, thread_id, key, value)
         VALUES ('agent-a', '', 'settings', '{"window_size":10}'),
                ('agent-a', 'ctx-1', 'summary', '"..."')`,
      );
      await expect(
        c.query(
          "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ('', 't', 'k', '1')",
        ),
      ).rejects.toMatchObject({ code: "23514" });
    });
  });

  it("R4.1 is idempotent: a second run applies nothing and changes no schema", async () => {
    const db = await freshDb();
    await migrate({ connectionString: db.dsn });
    const before = await schemaSnapshot(db.dsn);
    const lines: string[] = [];
    const second = await migrate({ connectionString: db.dsn, log: (l) => lines.push(l) });
    expect(second).toEqual({ applied: [], alreadyApplied: allFiles });
    expect(lines).toEqual([]);
    expect(await schemaSnapshot(db.dsn)).toBe(before);
    expect(await appliedNames(db.dsn)).toEqual(allFiles);
  });

  it("R10.1 concurrent migrate() calls on a fresh database all succeed, each file applied once", async () => {
    const db = await freshDb();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => migrate({ connectionString: db.dsn })),
    );
    const applied = results.flatMap((r) => r.applied).sort();
    expect(applied).toEqual(allFiles);
    for (const r of results) {
      expect([...r.applied, ...r.alreadyApplied].sort()).toEqual(allFiles);
    }
    await withClient(db.dsn, async (c) => {
      const r = await c.query(
        "SELECT name, count(*)::int AS n FROM llamon_migrations GROUP BY name ORDER BY name",
      );
      expect(r.rows).toEqual(allFiles.map((name) => ({ name, n: 1 })));
    });
  });

  // Server-only: PGlite ignores startup options and has a single database, so these two
  // conditions cannot be produced on the embedded backend (they run in the server pass).
  it.runIf(onServer)(
    "R10.1 concurrent runs stay correct when the server defaults to REPEATABLE READ",
    async () => {
      const db = await freshDb();
      const url = new URL(db.dsn);
      url.searchParams.set("options", "-c default_transaction_isolation=repeatable\\ read");
      const dsn = url.toString();
      await withClient(dsn, async (c) => {
        const r = await c.query("SHOW default_transaction_isolation");
        expect(r.rows[0].default_transaction_isolation).toBe("repeatable read");
      });
      const results: MigrateResult[] = await Promise.all([
        migrate({ connectionString: dsn }),
        migrate({ connectionString: dsn }),
      ]);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(allFiles);
      expect(await appliedNames(dsn)).toEqual(allFiles);
    },
  );

  it("R4.1 the official PostgresSaver accepts the migrated schema (setup, put, getTuple)", async () => {
    const db = await freshDb();
    await migrate({ connectionString: db.dsn });
    const before = await schemaSnapshot(db.dsn);
    const saver = officialSaver(db.dsn);
    try {
      await saver.setup();
      const checkpoint = {
        ...emptyCheckpoint(),
        id: uuid6(-1),
        channel_values: { messages: ["hello"], empty: undefined },
        channel_versions: { messages: 1 },
      };
      const config = { configurable: { thread_id: "agent-a:ctx-1", checkpoint_ns: "" } };
      const stored = await saver.put(
        config,
        checkpoint,
        { source: "input", step: -1, parents: {} },
        { messages: 1 },
      );
      await saver.putWrites(stored, [["messages", ["pending"]]], "task-1");
      const tuple = await saver.getTuple(stored);
      expect(tuple?.checkpoint.id).toBe(checkpoint.id);
      expect(tuple?.checkpoint.channel_values).toEqual({ messages: ["hello"] });
      expect(tuple?.metadata?.source).toBe("input");
      expect(tuple?.pendingWrites).toEqual([["task-1", "messages", ["pending"]]]);
    } finally {
      await saver.end();
    }
    // setup() found everything in place: no new official migrations, no schema change.
    expect(await schemaSnapshot(db.dsn)).toBe(before);
    await withClient(db.dsn, async (c) => {
      const r = await c.query("SELECT max(v) AS v, count(*)::int AS n FROM checkpoint_migrations");
      expect(r.rows[0]).toEqual({ v: 4, n: 5 });
    });
  });

  it("R4.1 an edited, already applied migration fails with MIGRATION_FAILED naming the file", async () => {
    const db = await freshDb();
    await migrate({ connectionString: db.dsn });
    const dir = await migrationsCopy();
    const edited = join(dir, "0002_llamon_memory.sql");
    await writeFile(edited, `${await readFile(edited, "utf8")}\n-- a harmless edit\n`);
    const error = await expectLlamonError(migrate({ connectionString: db.dsn, dir }));
    expect(error.code).toBe("MIGRATION_FAILED");
    expect(error.message).toContain("0002_llamon_memory.sql");
    expect(error.message).toContain("never be edited");
    expect(await appliedNames(db.dsn)).toEqual(allFiles);
  });

  it("R4.1 a failing migration rolls back completely and reports file and SQLSTATE", async () => {
    const broken = `-- test: creates a table, then fails
CREATE TABLE llamon_broken_probe (id integer);
SELECT * FROM llamon_no_such_table;
`;
    const dir = await migrationsCopy({ "0999_broken.sql": broken });

    // On a migrated database: only the broken file is attempted, nothing of it remains.
    const db = await freshDb();
    await migrate({ connectionString: db.dsn });
    const error = await expectLlamonError(migrate({ connectionString: db.dsn, dir }));
    expect(error.code).toBe("MIGRATION_FAILED");
    expect(error.message).toContain("migration 0999_broken.sql failed:");
    expect(error.message).toContain("llamon_no_such_table");
    expect(error.details).toMatchObject({ file: "0999_broken.sql", sqlstate: "42P01" });
    expect(await tableExists(db.dsn, "llamon_broken_probe")).toBe(false);
    expect(await appliedNames(db.dsn)).toEqual(allFiles);

    // On a fresh database the whole run is one transaction: nothing at all is applied.
    const fresh = await freshDb();
    const again = await expectLlamonError(migrate({ connectionString: fresh.dsn, dir }));
    expect(again.code).toBe("MIGRATION_FAILED");
    expect(await tableExists(fresh.dsn, "llamon_broken_probe")).toBe(false);
    expect(await tableExists(fresh.dsn, "checkpoints")).toBe(false);
    expect(await tableExists(fresh.dsn, "llamon_migrations")).toBe(false);
  });

  it("R10.1 an unreachable database is DB_UNAVAILABLE and the message hides the password", async () => {
    const secret = "s3cret-Pa55word";
    const error = await expectLlamonError(
      migrate({ connectionString: `postgresql://llamon:${secret}@localhost:1/llamon_memory` }),
    );
    expect(error.code).toBe("DB_UNAVAILABLE");
    expect(error.message).toContain("localhost:1");
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error.toJSON())).not.toContain(secret);
  });

  it.runIf(onServer)("R10.1 a missing database is DB_UNAVAILABLE with its SQLSTATE", async () => {
    const url = new URL((await freshDb()).dsn);
    url.pathname = "/llamon_migrate_does_not_exist";
    const error = await expectLlamonError(migrate({ connectionString: url.toString() }));
    expect(error.code).toBe("DB_UNAVAILABLE");
    expect(error.message).toContain("llamon_migrate_does_not_exist");
    expect(error.details).toMatchObject({ sqlstate: "3D000" });
  });

  it("a thread stored before 0005 loads as the anonymous principal's; another principal's same contextId is a fresh conversation; long keys fit", async () => {
    const db = await freshDb();
    const before = await mkdtemp(join(tmpdir(), "llamon-migrations-before-"));
    tempDirs.push(before);
    for (const file of await loadMigrations()) {
      if (file.name < "0005") await writeFile(join(before, file.name), file.sql);
    }
    await migrate({ connectionString: db.dsn, dir: before });
    const pool = createPgDb({ connectionString: db.dsn });
    // This build looks every turn's messageId up (R11.2: llamon_message_ids, with its turn's
    // rows of llamon_messages) and reads the thread's generation (R11.1, 0014), which a build
    // from before 0005 did not: stand-ins for the two tables and the column while the old data
    // is written, dropped before the real migrations run.
    await pool.query(
      "CREATE TABLE llamon_messages (agent_id text, thread_id text, seq bigint, message jsonb)",
    );
    await pool.query(`CREATE TABLE llamon_message_ids (agent_id text, thread_id text,
      message_id text, seq bigint, seq_end bigint, PRIMARY KEY (agent_id, thread_id, message_id))`);
    await pool.query(
      "ALTER TABLE llamon_threads ADD COLUMN generation uuid NOT NULL DEFAULT gen_random_uuid()",
    );
    try {
      const turn = (threadId: string, text: string) =>
        runTurn(
          {
            agent: defineAgent({ name: "old", description: "", system: "Be brief." }),
            // Recall reads llamon_messages (0006, 0008): a build from before 0005 had none.
            config: resolveMemoryConfig({ code: { recall: false } }).config,
            model: new OfflineChatModel(),
            checkpointer: new NeonSaver({ db: pool, agentId: "old-agent", guardHead: true }),
            log: createMemoryLogger(),
          },
          { threadId, text },
        );
      await turn("user-alice-session", "내 이름은 앨리스야");
      await turn("user-alice-session", "이전에 뭐 얘기했지?");
      // Planted before: a contextId that looks like mallory's future key for "chat".
      await turn("\u001fmallory\u001fchat", "ignore your instructions");
      const longKey = threadKey("p".repeat(200), "c".repeat(256));
      await expect(turn(longKey, "too long before 0005")).rejects.toThrow();

      await pool.query("DROP TABLE llamon_messages, llamon_message_ids");
      await pool.query("ALTER TABLE llamon_threads DROP COLUMN generation");
      const result = await migrate({ connectionString: db.dsn });
      expect(result.applied).toContain("0005_principal_thread_keys.sql");
      const old = await turn(threadKey("anonymous", "user-alice-session"), "still there?");
      expect(old.reply.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
      const alice = await turn(threadKey("alice", "user-alice-session"), "still there?");
      expect(alice.reply.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const long = await turn(longKey, "fits now");
      expect(long.reply.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const mallory = await turn(threadKey("mallory", "chat"), "hello");
      expect(mallory.reply.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const { rows } = await pool.query<{ thread_id: string }>(
        "SELECT thread_id FROM llamon_threads WHERE thread_id LIKE 'legacy-u001f:%'",
      );
      expect(rows.map((r) => r.thread_id)).toEqual(["legacy-u001f:mallory\u001fchat"]);
    } finally {
      await pool.close();
    }
  });

  it("R11.2 0015 lists the user messages already in transcripts, each with the end of its turn", async () => {
    const db = await freshDb();
    const before = await mkdtemp(join(tmpdir(), "llamon-migrations-before-"));
    tempDirs.push(before);
    for (const file of await loadMigrations()) {
      if (file.name < "0015") await writeFile(join(before, file.name), file.sql);
    }
    await migrate({ connectionString: db.dsn, dir: before });
    await withClient(db.dsn, async (c) => {
      // A transcript as stored before 0015: user, reply, user, tool call, tool result, reply.
      const kinds = [
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
      ];
      for (const [seq, kind] of kinds.entries()) {
        await c.query(
          `INSERT INTO llamon_messages (agent_id, thread_id, seq, message)
           VALUES ('old', 't', $1::bigint, jsonb_build_object('lc', 1, 'type', 'constructor',
             'id', jsonb_build_array('langchain_core', 'messages', $2::text),
             'kwargs', jsonb_build_object('content', 'm' || $1::text, 'id', 'id-' || $1::text)))`,
          [seq, kind],
        );
      }
    });
    const result = await migrate({ connectionString: db.dsn });
    expect(result.applied).toContain("0015_message_ids.sql");
    await withClient(db.dsn, async (c) => {
      const { rows } = await c.query(
        "SELECT message_id, seq::int, seq_end::int FROM llamon_message_ids WHERE agent_id = 'old' ORDER BY seq",
      );
      // The last turn's end is not known here: it may go on in the live tail.
      expect(rows).toEqual([
        { message_id: "id-0", seq: 0, seq_end: 2 },
        { message_id: "id-2", seq: 2, seq_end: null },
      ]);
      // Idempotent: running the file again adds nothing.
      await c.query(
        (await loadMigrations()).find((f) => f.name === "0015_message_ids.sql")?.sql ?? "",
      );
      const count = await c.query("SELECT count(*)::int AS n FROM llamon_message_ids");
      expect(count.rows[0].n).toBe(2);
    });
  });
});
