/**
 * The Worker's database path, exercised inside workerd: Neon driver → local Neon-protocol
 * proxy → Postgres (or embedded PGlite). Same expectations as the Node tests.
 */
import { env } from "cloudflare:test";
import { neonConfig } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { dbErrorFields, isLlamonError } from "../../src/errors.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { caught } from "../helpers/caught.ts";
import { normalise, TYPE_CASES } from "../helpers/type-cases.ts";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

describe("Neon HTTP from workerd", () => {
  it("sends with the Worker's own fetch: Node's HTTP client is for Node only", async () => {
    const { rows } = await db().query<{ one: number }>("SELECT 1 AS one");
    expect(rows).toEqual([{ one: 1 }]);
    expect(navigator.userAgent).toBe("Cloudflare-Workers");
    expect(neonConfig.fetchFunction).toBeUndefined();
  });

  it.each(TYPE_CASES)("round-trips $name", async ({ sql, params, expected }) => {
    const { rows } = await db().query<{ v: unknown }>(sql, params as never[]);
    expect(normalise(rows[0]?.v)).toEqual(normalise(expected));
  });

  it("carries SQLSTATE, detail and constraint on SQL errors", async () => {
    // The Worker's role creates no tables (its grants are the Worker's, as on Neon): a
    // temporary one, in the batch that fails.
    const table = `w_${crypto.randomUUID().replaceAll("-", "")}`;
    const error = await caught(
      db().batch([
        { text: `CREATE TEMP TABLE ${table} (id int PRIMARY KEY)` },
        { text: `INSERT INTO ${table} VALUES (1)` },
        { text: `INSERT INTO ${table} VALUES ($1)`, params: [1] },
      ]),
    );
    expect(isLlamonError(error, "DB_QUERY_FAILED")).toBe(true);
    expect(dbErrorFields(error)).toMatchObject({
      sqlstate: "23505",
      constraint: `${table}_pkey`,
      detail: "Key (id)=(1) already exists.",
      table,
    });
  });

  it("rejects a multi-statement string", async () => {
    const error = await caught(db().query("SELECT 1; SELECT 2"));
    expect(dbErrorFields(error)?.sqlstate).toBe("42601");
  });

  it("leaves nothing behind when a batch fails", async () => {
    const d = db();
    // Rows of one of llamon's tables (the Worker's role may write them, not make tables).
    const agent = `w-${crypto.randomUUID()}`;
    const insert =
      "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ($1, $2, 'k', '1')";
    const error = await caught(
      d.batch([
        { text: insert, params: [agent, "a"] },
        { text: insert, params: [agent, "b"] },
        { text: insert, params: [agent, "a"] },
      ]),
    );
    expect(dbErrorFields(error)?.sqlstate).toBe("23505");
    const { rows } = await d.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM persistent_memory WHERE agent_id = $1",
      [agent],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("cannot write in a read-only batch, and applies the requested isolation", async () => {
    const d = db();
    const error = await caught(
      d.batch([{ text: "CREATE TEMP TABLE ro_probe (x int)" }], { readOnly: true }),
    );
    expect(dbErrorFields(error)?.sqlstate).toBe("25006");
    const [iso, ro] = await d.batch(
      [{ text: "SHOW transaction_isolation" }, { text: "SHOW transaction_read_only" }],
      { isolationLevel: "Serializable", readOnly: true },
    );
    expect(iso?.rows[0]).toEqual({ transaction_isolation: "serializable" });
    expect(ro?.rows[0]).toEqual({ transaction_read_only: "on" });
  });

  it("refuses an oversize request with DB_PAYLOAD_TOO_LARGE", async () => {
    const error = await caught(
      db().query("SELECT length($1) AS n", ["x".repeat(11 * 1024 * 1024)]),
    );
    expect(isLlamonError(error, "DB_PAYLOAD_TOO_LARGE")).toBe(true);
  });

  it("does not carry SET from one request into the next", async () => {
    const d = db();
    for (let i = 0; i < 8; i++) {
      await d.query("SELECT set_config('application_name', 'leaky', false)");
      const { rows } = await d.query<{ application_name: string }>("SHOW application_name");
      expect(rows[0]?.application_name).not.toBe("leaky");
    }
  });
});
