/**
 * SQLite schema v2 of the Durable Object backends (node:sqlite here): thread ids
 * up to 512 characters in persistent_memory, and threads stored under a contextId starting
 * with U+001F renamed out of the thread-key space (as migrations/0005 does on Postgres).
 */
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { ensureSqliteSchema, rows } from "../../../src/store/sqlite-sql.ts";
import { nodeSqlite } from "../../helpers/node-sqlite.ts";

describe("SQLite schema upgrades", () => {
  it("keeps every row, accepts 512-character thread ids, and renames legacy ids that start with U+001F", () => {
    const db = new DatabaseSync(":memory:");
    ensureSqliteSchema(nodeSqlite(db));
    // Back to v1 with data stored then (a planted "\u001falice\u001fchat" among it).
    const v1 = nodeSqlite(db);
    rows(v1, "DELETE FROM llamon_schema WHERE v >= 2");
    // v4 is the one version that is not idempotent (SQLite has no ADD COLUMN IF NOT EXISTS).
    rows(v1, "ALTER TABLE llamon_messages DROP COLUMN conversation");
    const planted = "\u001falice\u001fchat";
    for (const thread of ["plain", planted]) {
      rows(
        v1,
        "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ('a', ?, 'summary', '\"x\"')",
        thread,
      );
      rows(
        v1,
        "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, checkpoint) VALUES (?, '', 'c1', '{}')",
        `a:${thread}`,
      );
    }
    const v2 = nodeSqlite(db);
    ensureSqliteSchema(v2);
    expect(
      rows(v2, "SELECT thread_id FROM persistent_memory ORDER BY thread_id").map(
        (r) => r.thread_id,
      ),
    ).toEqual(["legacy-u001f:alice\u001fchat", "plain"]);
    expect(
      rows(v2, "SELECT thread_id FROM checkpoints ORDER BY thread_id").map((r) => r.thread_id),
    ).toEqual(["a:legacy-u001f:alice\u001fchat", "a:plain"]);
    rows(
      v2,
      "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ('a', ?, 'k', '1')",
      "t".repeat(512),
    );
    expect(() =>
      rows(
        v2,
        "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ('a', ?, 'k', '1')",
        "t".repeat(513),
      ),
    ).toThrow(/CHECK/);
  });

  it("schema v4 adds the transcript rows' conversation flag; rows stored before keep NULL (counted by type)", () => {
    const db = new DatabaseSync(":memory:");
    ensureSqliteSchema(nodeSqlite(db));
    const v3 = nodeSqlite(db);
    rows(v3, "DELETE FROM llamon_schema WHERE v >= 4");
    rows(v3, "DROP TABLE llamon_message_ids");
    rows(v3, "ALTER TABLE llamon_messages DROP COLUMN conversation");
    rows(
      v3,
      "INSERT INTO llamon_messages (agent_id, thread_id, seq, message) VALUES ('a', 't', 0, '{}')",
    );
    const v4 = nodeSqlite(db);
    ensureSqliteSchema(v4);
    expect(rows(v4, "SELECT max(v) AS v FROM llamon_schema")).toEqual([{ v: 5 }]);
    expect(rows(v4, "SELECT seq, conversation FROM llamon_messages")).toEqual([
      { seq: 0, conversation: null },
    ]);
  });
});
