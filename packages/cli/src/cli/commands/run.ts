/**
 * `llamon run [dir]`: run a llamon project locally with wrangler dev. For the postgres
 * backend it first provides a database (R9.3) and the Neon-protocol proxy, and points the
 * Worker at them. Anything that ends it (Ctrl-C, SIGTERM, SIGHUP, its parent process going
 * away, wrangler exiting, an error) stops everything it started.
 */
import type { ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import { projectBackend } from "../agent-code.ts";
import { ChildGroup } from "../children.ts";
// Loaded when a database is needed: the embedded Postgres is heavy to import (CLI start-up).
import type { LocalDatabase } from "../database.ts";
import { defaultPort, parsePort, portParser } from "../options.ts";
import { info, warn } from "../output.ts";
import { assertPortFree } from "../port.ts";
import { assertPortsFree } from "../ports.ts";
import { loadProject, resolveWranglerBin } from "../project.ts";
import { StopRequest } from "../stop-request.ts";

export function registerRun(program: Command): void {
  program
    .command("run")
    .argument("[dir]", "project folder", ".")
    .description(
      "run a llamon project locally (wrangler dev), with a database for postgres projects",
    )
    .option("--port <port>", "HTTP port (default: $PORT or 8787)", parsePort)
    .option(
      "--embedded",
      "always use the embedded Postgres, even if POSTGRES_MEMORY_DSN is reachable",
    )
    .option(
      "--data-dir <dir>",
      "where the embedded Postgres keeps its data (default: <dir>/.llamon/pgdata)",
    )
    .option(
      "--proxy-port <port>",
      "port of the local Neon-protocol proxy on 127.0.0.1 (default: a free port)",
      portParser("--proxy-port"),
    )
    .option(
      "--pg-port <port>",
      "port of the embedded Postgres on 127.0.0.1, when one is started (default: a free port)",
      portParser("--pg-port"),
    )
    .option(
      "--state-dir <dir>",
      "where wrangler keeps the Worker's local state: Durable Objects, queues (default: <dir>/.wrangler/state)",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon run .
  $ npx llamon run my-agent --port 8788
  $ npx llamon run . --proxy-port 4444 --pg-port 5433

For postgres projects: uses POSTGRES_MEMORY_DSN from .dev.vars when reachable (creating the
database if needed), otherwise an embedded Postgres kept in <dir>/.llamon/pgdata.
Two runs of one project at the same time need their own --port, --data-dir and --state-dir;
a port another process holds is an error (PORT_IN_USE) before anything starts. Ctrl-C, SIGTERM,
SIGHUP or the parent process (npm start) going away stops everything it started.
The proxy and the embedded Postgres listen on free ports unless --proxy-port and --pg-port pin
them (two projects side by side, a firewall); a pinned port that is taken is PORT_IN_USE too.
The Worker connects as a role of its own (made after the migrations, with only the privileges
it needs; name and password in <dir>/.llamon/worker-role.json), and the proxy checks that
password, as Neon does.
A2A auth: A2A_AUTH (and A2A_API_KEYS, A2A_JWT_*) from the environment or .dev.vars; when
neither sets A2A_AUTH the local Worker runs with none (no credentials needed).`,
    )
    .action(async (dir: string, opts: RunOptions) => {
      await runProject(dir, opts);
    });
}

/** Thrown inside the start-up when a stop was asked for: not an error. */
class StopAsked extends Error {}

/**
 * Start the project and serve until asked to stop. Checks come before anything starts: the
 * port, the agent's code and memory settings (a mistake keeps its code, e.g. CONFIG_INVALID,
 * instead of surfacing as wrangler's start-up failure). Whatever ends it — a signal, the parent
 * process gone, wrangler exiting, an error — every child is stopped before it returns.
 */
async function runProject(dir: string, opts: RunOptions): Promise<void> {
  const children = new ChildGroup();
  let db: LocalDatabase | undefined;
  const stop = new StopRequest({
    onRepeat: (why) => {
      warn(`${why} again: stopping at once`);
      children.killAll();
      process.exit(1);
    },
  });
  // Whatever stops llamon (a signal, wrangler exiting, an unexpected error in the proxy or the
  // embedded Postgres), wrangler and the workerd it started stop with it.
  children.guard(async () => {
    await db?.close();
  });
  const halt = new AbortController();
  void stop.reason.then(() => halt.abort());
  const go = () => {
    if (stop.stopped) throw new StopAsked();
  };
  try {
    const port = opts.port ?? defaultPort();
    const project = await loadProject(dir);
    await assertPortFree(port);
    await assertPortsFree([
      { flag: "--port", port, probe: false },
      { flag: "--proxy-port", port: opts.proxyPort },
      { flag: "--pg-port", port: opts.pgPort },
    ]);
    const backend = await projectBackend(project);
    go();
    const vars: Record<string, string> = a2aAuthVars(project.vars);
    // The admin token from the environment wins over .dev.vars, as the A2A_* settings do.
    const adminToken = process.env.LLAMON_ADMIN_TOKEN;
    if (adminToken !== undefined && adminToken.trim() !== "") {
      vars.LLAMON_ADMIN_TOKEN = adminToken.trim();
    }
    if (backend === "postgres") {
      const { provideLocalDatabase } = await import("../database.ts");
      db = await provideLocalDatabase({
        projectDir: project.dir,
        dsn: process.env.POSTGRES_MEMORY_DSN ?? project.vars.POSTGRES_MEMORY_DSN,
        forceEmbedded: opts.embedded === true,
        dataDir: opts.dataDir,
        proxyPort: opts.proxyPort,
        pgPort: opts.pgPort,
        log: info,
      });
      go();
      vars.LLAMON_NEON_FETCH_ENDPOINT = db.proxy.url;
      vars.POSTGRES_MEMORY_DSN = db.workerDsn;
      info(`Neon-protocol proxy: ${db.proxy.url}`);
    }
    const child = startWrangler(children, project.dir, port, vars, opts.stateDir);
    const url = `http://127.0.0.1:${port}`;
    const exited = new Promise<number>((resolve) =>
      child.once("exit", (code) => resolve(code ?? 1)),
    );
    // The health poll stops when wrangler exits or a stop is asked for: it must not keep llamon
    // running (for up to its two minutes) after either.
    void exited.then(() => halt.abort());
    const ready = await Promise.race([waitForHealth(url, halt.signal), exited.then(() => false)]);
    go();
    if (!ready)
      throw new LlamonError(
        "INTERNAL",
        "wrangler dev stopped before the Worker was ready (see its output above)",
      );
    info("");
    info(`${project.name} is running at ${url}  (Ctrl-C to stop)`);
    info("Talk to it (send the same contextId again to continue the conversation):");
    info(`  ${productDocumentCurl(url)}`);
    info(`Health: curl -s ${url}/health`);
    const ended = await Promise.race([stop.reason, exited]);
    if (typeof ended === "number") {
      throw new LlamonError(
        "INTERNAL",
        `wrangler dev stopped by itself (exit code ${ended}; see its output above)`,
      );
    }
    info(`stopping (${ended})`);
  } catch (error) {
    if (!(error instanceof StopAsked)) throw error;
    info(`stopping (${await stop.reason})`);
  } finally {
    await children.stopAll();
    await db?.close();
    stop.dispose();
  }
}

/** The A2A_* settings this process passes on to the Worker (over .dev.vars). */
const A2A_AUTH_VARS = [
  "A2A_AUTH",
  "A2A_API_KEYS",
  "A2A_JWT_JWKS_URL",
  "A2A_JWT_ISSUER",
  "A2A_JWT_AUDIENCE",
  "A2A_JWT_PRINCIPAL_CLAIM",
  "A2A_JWT_CLOCK_SKEW_SECONDS",
];

/**
 * Who may call the local Worker: A2A_* from this process's environment win over the
 * project's (.dev.vars, wrangler.toml); when neither sets A2A_AUTH, local development runs
 * with `none` (every caller is `anonymous`), and says so.
 */
export function a2aAuthVars(projectVars: Readonly<Record<string, string>>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of A2A_AUTH_VARS) {
    const value = process.env[name];
    if (value !== undefined && value !== "") vars[name] = value;
  }
  const mode = vars.A2A_AUTH ?? projectVars.A2A_AUTH ?? "";
  if (mode.trim() === "") {
    vars.A2A_AUTH = "none";
    info(
      "A2A auth: none (local development: callers need no credentials). Set A2A_AUTH=api_key or jwt to try authentication.",
    );
  } else {
    info(`A2A auth: ${mode.trim()}`);
  }
  return vars;
}

interface RunOptions {
  port?: number;
  embedded?: boolean;
  dataDir?: string;
  proxyPort?: number;
  pgPort?: number;
  stateDir?: string;
}

/**
 * `wrangler dev` of the project. Its local state (the Durable Objects' SQLite files, queues)
 * lives in `stateDir` when given: two runs of one project at the same time must not share it,
 * or workerd answers SQLITE_BUSY ("database is locked") and their tasks mix.
 */
function startWrangler(
  children: ChildGroup,
  projectDir: string,
  port: number,
  vars: Record<string, string>,
  stateDir: string | undefined,
): ChildProcess {
  const args = [
    resolveWranglerBin(projectDir),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--show-interactive-dev-session=false",
    // Cron triggers never fire on their own locally; without this wrangler warns so on every
    // start. With it, /__scheduled (and /cdn-cgi/local/scheduled) runs the scheduled handler.
    "--test-scheduled",
    // The devtools inspector listens on a port the system picks when it binds. Left to itself,
    // wrangler probes for a free one from 9229 and binds it later, and two runs starting
    // together (two projects, or parallel tests) could both pick the same one: the second
    // failed with "Address already in use" on an internal socket.
    "--inspector-port",
    "0",
  ];
  if (stateDir !== undefined) args.push("--persist-to", resolve(stateDir));
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  return children.spawn(process.execPath, args, {
    cwd: projectDir,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...wranglerQuietEnv(), ...process.env },
  });
}

/**
 * What keeps wrangler from reaching out on its own in a local run: no usage metrics, no error
 * reports, and no download of the `Request.cf` placeholder from workers.cloudflare.com
 * (offline that printed a getaddrinfo stack trace twice; the agent does not read
 * `request.cf`, and miniflare's built-in placeholder is used). And no shared dev registry
 * (the machine-wide list of running `wrangler dev` sessions, for bindings across them): a
 * Worker with a queue producer watches it, its own entry appearing there counted as a change,
 * and wrangler printed the binding table a second time on every start (and again whenever
 * another session on the machine started or stopped). A llamon Worker's queue, Durable Objects
 * and cron live in the one session. A value the user set wins.
 */
export function wranglerQuietEnv(): Record<string, string> {
  return {
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_REGISTRY_PATH: "",
  };
}

async function waitForHealth(
  url: string,
  stop: AbortSignal,
  timeoutMs = 120_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stop.aborted) return false;
    try {
      const res = await fetch(`${url}/health`, { signal: stop });
      if (res.ok) return true;
    } catch {
      // not listening yet (or wrangler exited)
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  warn(`the Worker did not answer ${url}/health within ${timeoutMs / 1000}s`);
  return false;
}

/** The product document's request, ready to paste. */
export function productDocumentCurl(url: string): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    method: "message/send",
    params: {
      message: {
        contextId: "user-alice-session",
        role: "user",
        parts: [{ kind: "text", text: "이전에 뭐 얘기했지?" }],
      },
    },
  });
  return `curl -s ${url}/ -H 'content-type: application/json' -d '${body}'`;
}
