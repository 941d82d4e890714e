/**
 * What the local Neon proxy asks of its upstream Postgres besides the statements: cancelling
 * a running statement (the protocol's CancelRequest, as Neon's `cancel_token.cancel_query`,
 * sql_over_http.rs ~699 and ~801), telling a server from the embedded PGlite, and the element
 * types of array types for typed JSON output. Dev and tests only.
 */
import { connect } from "node:net";
import type pg from "pg";

/** What node-postgres keeps of a connection and does not type. */
interface ClientInternals {
  readonly processID?: number | null;
  readonly secretKey?: number | null;
  readonly host?: string;
  readonly port?: number;
}

const CANCEL_REQUEST_CODE = 80877102;

/**
 * Sends the protocol's CancelRequest for the statement `client` runs, on a connection of its
 * own (what Neon does when its HTTP client goes away). Resolves once the server closed that
 * connection, or after a second; never rejects.
 */
export function cancelRunningStatement(client: pg.PoolClient): Promise<void> {
  const c = client as unknown as ClientInternals;
  const pid = c.processID;
  const key = c.secretKey;
  if (typeof pid !== "number" || typeof key !== "number") return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(pid, 8);
  packet.writeInt32BE(key | 0, 12);
  return new Promise((resolve) => {
    const host = c.host ?? "localhost";
    const socket = host.startsWith("/")
      ? connect(`${host}/.s.PGSQL.${c.port ?? 5432}`)
      : connect(c.port ?? 5432, host);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, 1000);
    socket.once("connect", () => socket.end(packet));
    socket.once("close", done);
    socket.once("error", done);
  });
}

/**
 * Whether statements of this upstream can be cancelled: a Postgres server can; the embedded
 * PGlite cannot (one session run in this process: a statement blocks the event loop until it
 * ends, so no cancel could reach it in time).
 */
export async function isCancellable(client: pg.PoolClient): Promise<boolean> {
  const r = await client.query<{ v: string }>("SELECT version() AS v");
  return !/emscripten|PGlite/i.test(r.rows[0]?.v ?? "");
}

/**
 * The element type of each array type, read from pg_type on first sight and kept (Neon's
 * driver learns unknown types the same way): typcategory 'A' is an array, whose elements
 * are `typelem` (int2vector and oidvector included, as in tokio-postgres).
 */
export class ArrayTypes {
  private readonly elements = new Map<number, number | undefined>();

  element(oid: number): number | undefined {
    return this.elements.get(oid);
  }

  async learn(client: pg.PoolClient, oids: readonly number[]): Promise<void> {
    const unknown = [...new Set(oids)].filter((oid) => !this.elements.has(oid));
    if (unknown.length === 0) return;
    const r = await client.query<{ oid: string; elem: string | null }>({
      text: `SELECT oid::int4::text AS oid,
                    CASE WHEN typcategory = 'A' THEN typelem::int4::text END AS elem
               FROM pg_type WHERE oid = ANY($1::oid[])`,
      values: [`{${unknown.join(",")}}`],
    });
    for (const oid of unknown) this.elements.set(oid, undefined);
    for (const row of r.rows) {
      const elem = row.elem === null ? undefined : Number(row.elem);
      this.elements.set(Number(row.oid), elem);
      // An element type is never an array itself.
      if (elem !== undefined && !this.elements.has(elem)) this.elements.set(elem, undefined);
    }
  }
}
