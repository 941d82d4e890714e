/**
 * The local Neon proxy's side of authentication and the upstream connection: who the
 * connection string says is calling, whether the password is theirs, and a Postgres session
 * that runs as that role. Dev and tests only.
 *
 * What Neon does (neondatabase/neon, proxy/src/serverless/): the user and password of the
 * connection string are checked against the role's SCRAM secret before anything connects
 * (backend.rs `authenticate_with_password`, ~49–103: a role without a secret or a wrong
 * password is `password authentication failed for user '<role>'`, HTTP 400 since it is a user
 * error, sql_over_http.rs ~323–330), and the compute is then reached *as that role*
 * (backend.rs `connect_to_compute`, ~186–191: the startup packet's `user`).
 *
 * Here:
 * - The password is checked against the role's verifier in `pg_authid` (./scram.ts), so it
 *   is checked even when the local server trusts every local connection (a usual setup). This
 *   needs an upstream user that may read `pg_authid` (a superuser, as `postgres` is locally).
 *   Without that right the check is left to the server, which makes it only if its
 *   pg_hba.conf asks for a password; `onNotice` says so once.
 * - A server upstream: one pool per (role, password), connected as the role with its password,
 *   so `session_user`, the role's privileges, `LOGIN` and the database's `CONNECT` are the
 *   server's own checks.
 * - The embedded PGlite has one session and ignores the startup packet's user (every
 *   connection is its bootstrap superuser). There the request runs inside a transaction that
 *   begins with `SET LOCAL ROLE <role>` (the session is the proxy's alone until it ends, and
 *   the role ends with it): privileges are the role's (`current_user`), but `session_user`
 *   stays `postgres`, and `LOGIN` is checked here, as the server would. Two kinds of single
 *   statement cannot be wrapped (see {@link pgliteStatementPlace}). docs/architecture.md lists
 *   these differences.
 * - The database is the upstream's (the one the proxy was started with), whatever the
 *   connection string names.
 */
import pg from "pg";
import { neonRequestError } from "./neon-protocol.ts";
import { scramPasswordMatches } from "./scram.ts";

/** Every column comes back as the text Postgres sent, as Neon's raw text output does. */
export const RAW_TEXT_TYPES = { getTypeParser: () => (value: string) => value };

export interface UpstreamOptions {
  /** The Postgres the proxy forwards to, as a user that may read pg_authid (a superuser). */
  readonly upstreamDsn: string;
  /** Connections per role (and of the PGlite session's pool). */
  readonly poolSize: number;
  /** Told once when the proxy cannot check passwords itself. */
  readonly onNotice?: ((line: string) => void) | undefined;
}

export interface UpstreamSession {
  readonly client: pg.PoolClient;
  /**
   * Set on PGlite: the role the request must run as, with `SET LOCAL ROLE` inside its
   * transaction (single statements included).
   */
  readonly setLocalRole: string | undefined;
  /**
   * Set on PGlite: the password check, to run on `client` before anything else of the request
   * (throws the error Neon answers). On a server it ran before the connection was taken.
   */
  readonly check: (() => Promise<void>) | undefined;
}

interface UpstreamKind {
  /** The embedded PGlite (one session, the startup user ignored). */
  readonly pglite: boolean;
  /** The upstream user may read pg_authid: the proxy checks passwords itself. */
  readonly checksPasswords: boolean;
}

export interface Upstream {
  /** A session as `user`, after its password was checked; throws the error Neon answers. */
  open(user: string, password: string): Promise<UpstreamSession>;
  end(): Promise<void>;
}

/** Neon's answer to a wrong password or an unknown role (auth/mod.rs, `PasswordFailed`). */
export function passwordFailed(user: string) {
  return neonRequestError(400, `password authentication failed for user '${user}'`);
}

export function createUpstream(options: UpstreamOptions): Upstream {
  const newPool = (connectionString: string, max: number) => {
    const pool = new pg.Pool({
      connectionString,
      max,
      idleTimeoutMillis: 10_000,
      types: RAW_TEXT_TYPES,
    });
    pool.on("error", () => {});
    return pool;
  };
  /**
   * The proxy's own connections: role lookups (short: 2 are plenty), and on PGlite every
   * request (the one session: poolSize 1 there).
   */
  const admin = newPool(options.upstreamDsn, Math.min(options.poolSize, 2));
  const byRole = new Map<string, pg.Pool>();
  let kind: Promise<UpstreamKind> | undefined;

  function upstreamKind(): Promise<UpstreamKind> {
    kind ??= (async () => {
      const { rows } = await admin.query<{ pglite: string; authid: string }>(
        `SELECT (version() LIKE '%PGlite%')::text AS pglite,
                has_table_privilege('pg_catalog.pg_authid', 'SELECT')::text AS authid`,
      );
      const checksPasswords = rows[0]?.authid === "true";
      if (!checksPasswords) {
        options.onNotice?.(
          "the Neon proxy's upstream user may not read pg_authid (it is no superuser): passwords of the connection string are checked only if the server asks for them",
        );
      }
      return { pglite: rows[0]?.pglite === "true", checksPasswords };
    })();
    // Not reachable yet (the server starts later): ask again on the next request.
    kind.catch(() => {
      kind = undefined;
    });
    return kind;
  }

  /** The role's login facts, or undefined when there is no such role. */
  async function role(user: string, on: Pick<pg.Pool, "query"> = admin) {
    const { rows } = await on.query<{ secret: string | null; login: string; expired: string }>(
      `SELECT rolpassword AS secret, rolcanlogin::text AS login,
              (rolvaliduntil IS NOT NULL AND rolvaliduntil < now())::text AS expired
         FROM pg_catalog.pg_authid WHERE rolname = $1`,
      [user],
    );
    const row = rows[0];
    return row === undefined
      ? undefined
      : { secret: row.secret, login: row.login === "true", expired: row.expired === "true" };
  }

  function rolePool(user: string, password: string): pg.Pool {
    const key = JSON.stringify([user, password]);
    let pool = byRole.get(key);
    if (pool === undefined) {
      const url = new URL(options.upstreamDsn);
      url.username = encodeURIComponent(user);
      url.password = encodeURIComponent(password);
      pool = newPool(url.toString(), options.poolSize);
      byRole.set(key, pool);
    }
    return pool;
  }

  return {
    async open(user, password) {
      const { pglite, checksPasswords } = await upstreamKind();
      /** No role, no password, an expired one or a wrong one: all the same answer, as on Neon. */
      const check = async (on: Pick<pg.Pool, "query">) => {
        const facts = await role(user, on);
        // A role without a secret fails like a wrong password (backend.rs ~72–77).
        const ok =
          facts?.secret != null &&
          !facts.expired &&
          (await scramPasswordMatches(facts.secret, password));
        if (!ok) throw passwordFailed(user);
        if (pglite && !facts?.login) throw notPermittedToLogIn(user);
      };
      if (pglite) {
        // On the request's own connection, as its first exchange: PGlite has one session, so
        // whatever happens to it then (a held session, a cut connection) happens to the request.
        const client = await admin.connect();
        return { client, setLocalRole: user, check: () => check(client) };
      }
      if (checksPasswords) await check(admin);
      return {
        client: await rolePool(user, password).connect(),
        setLocalRole: undefined,
        check: undefined,
      };
    },
    async end() {
      await Promise.all([admin.end(), ...[...byRole.values()].map((p) => p.end())]);
    },
  };
}

/**
 * Where a single statement runs on PGlite: transaction control (BEGIN, COMMIT, SAVEPOINT, …)
 * as it comes, since a wrapper would change what it does (it needs no privilege); a statement
 * that cannot run in a transaction block (VACUUM, CREATE DATABASE, … CONCURRENTLY) after a
 * session-level SET ROLE; anything else in the role's transaction. Read from the first words.
 */
export function pgliteStatementPlace(query: string): "plain" | "session-role" | "transaction" {
  const text = query
    .replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)+/, "")
    .toUpperCase()
    .replace(/\s+/g, " ");
  if (
    /^(BEGIN|START|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE TRANSACTION)\b/.test(text)
  ) {
    return "plain";
  }
  if (
    /^(VACUUM|ALTER SYSTEM|(CREATE|DROP) (DATABASE|TABLESPACE)|REINDEX (SYSTEM|DATABASE))\b/.test(
      text,
    ) ||
    /\bCONCURRENTLY\b/.test(text)
  ) {
    return "session-role";
  }
  return "transaction";
}

/** What a server answers a role without LOGIN (FATAL 28000), for PGlite, which does not check it. */
function notPermittedToLogIn(user: string): pg.DatabaseError {
  const error = new pg.DatabaseError(`role "${user}" is not permitted to log in`, 0, "error");
  error.code = "28000";
  error.severity = "FATAL";
  return error;
}
