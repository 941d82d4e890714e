/**
 * R2.4: turns that start the same conversation at the same moment all insert its registry row
 * (llamon_threads) in their write batch. Each must either create the row or wait for the one
 * that did and take its lock, never fail: before migration 0013 a second UNIQUE index (on
 * storage_thread_id) was outside the upsert's arbiter, and about one round in ten of the race
 * below ended in "duplicate key value violates unique constraint" for one of the turns, an
 * error the caller saw as a failed turn.
 *
 * Real concurrency needs the server: the embedded PGlite runs one connection at a time, where
 * the race cannot happen (and the test could not fail).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import { TOUCH_THREAD } from "../../src/store/sql.ts";
import { LOCK_THREAD } from "../../src/store/thread-head-sql.ts";
import { backendKind } from "../helpers/backend.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";

const ROUNDS = 150;
const TURNS = 20;
const AGENT = "race-agent";

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  if (backendKind() === "embedded") return;
  db = await createTestDatabase("llamon_race");
  await migrate({ connectionString: db.dsn });
  pool = new pg.Pool({ connectionString: db.dsn, max: TURNS });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** `TURNS` transactions at once, each running `statement` for one new thread; their errors. */
async function race(statement: string, params: (thread: string) => unknown[]): Promise<string[]> {
  const errors: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const thread = `new-${round}-${crypto.randomUUID()}`;
    await Promise.all(
      Array.from({ length: TURNS }, async () => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          await client.query(statement, params(thread));
          await client.query("COMMIT");
        } catch (error) {
          errors.push((error as Error).message);
          await client.query("ROLLBACK");
        } finally {
          client.release();
        }
      }),
    );
  }
  return errors;
}

describe.skipIf(backendKind() === "embedded")(
  "R2.4 concurrent first turns on a new conversation",
  () => {
    it("R2.4 the guarded write's registry lock: every turn creates the row or waits and locks it, none fails", async () => {
      const errors = await race(LOCK_THREAD, (t) => [AGENT, t, `${AGENT}:${t}`]);
      expect(errors).toEqual([]);
      const rows = await pool.query(
        "SELECT count(*)::int AS n FROM llamon_threads WHERE agent_id = $1",
        [AGENT],
      );
      expect(rows.rows[0].n).toBe(ROUNDS);
    }, 120_000);

    it("R2.4 the unguarded write's registry touch: none fails either", async () => {
      const errors = await race(TOUCH_THREAD, (t) => [
        `${AGENT}-touch`,
        t,
        `${AGENT}-touch:${t}`,
        "head",
        2,
      ]);
      expect(errors).toEqual([]);
    }, 120_000);

    it("R2.3 a storage id still names one registry row: the CHECKs tie it to agent and thread", async () => {
      await expect(
        pool.query(
          "INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id) VALUES ($1, $2, $3)",
          [AGENT, "x", `${AGENT}:y`],
        ),
      ).rejects.toThrow(/llamon_threads_storage_thread_id_check/);
      await expect(
        pool.query(
          "INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id) VALUES ($1, $2, $3)",
          ["a:b", "c", "a:b:c"],
        ),
      ).rejects.toThrow(/llamon_threads_agent_id_check/);
    });
  },
);
