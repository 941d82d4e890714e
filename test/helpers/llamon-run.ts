/**
 * `llamon run` as a child process for the end-to-end tests: a free port, start and wait until it
 * says it is running, send the product document's JSON, stop it with SIGINT. Node only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { LLAMON_BIN, REPO } from "./cli.ts";
import { freePort } from "./ports.ts";

export { freePort, LLAMON_BIN, REPO };

/** `node packages/cli/dist/cli/bin.js <args>` in `cwd`, with `env` over this process's environment. */
export function llamon(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(process.execPath, [LLAMON_BIN, ...args], { cwd, env: { ...process.env, ...env } });
}

export interface RunningLlamon {
  readonly child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr together. */
  output(): string;
}

/**
 * Starts `llamon run <args>` and resolves once its output says "is running at"; throws (with
 * the output) if it exits first or is not ready within `readyMs`.
 */
export async function startLlamonRun(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    readyMs: number;
    pollMs: number;
    /** An installed `llamon` executable (a project's node_modules/.bin/llamon) instead of this checkout's. */
    bin?: string;
  },
): Promise<RunningLlamon> {
  const child =
    options.bin === undefined
      ? llamon(["run", ...args], options.cwd, options.env)
      : spawn(options.bin, ["run", ...args], {
          cwd: options.cwd,
          env: { ...process.env, ...options.env },
        });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const deadline = Date.now() + options.readyMs;
  while (!out.includes("is running at")) {
    if (child.exitCode !== null) throw new Error(`llamon run exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`llamon run did not get ready:\n${out}`);
    await new Promise((r) => setTimeout(r, options.pollMs));
  }
  return { child, output: () => out };
}

/**
 * `llamon run . --embedded` of the repository's reference agent on `port`, with `env` over a
 * clean memory/auth environment. All its state is in `dir`: the embedded Postgres in
 * `dir/pgdata`, wrangler's (Durable Objects, queues) in `dir/wrangler` — test files run two at
 * a time, and two runs of the repository sharing `.wrangler/state` got SQLITE_BUSY.
 */
export function startReferenceAgent(
  port: number,
  dir: string,
  env: Record<string, string> = {},
): Promise<RunningLlamon> {
  const args = [".", "--port", String(port), "--embedded"];
  args.push("--data-dir", join(dir, "pgdata"), "--state-dir", join(dir, "wrangler"));
  return startLlamonRun(args, {
    cwd: REPO,
    // As in a user's shell: under NODE_ENV=test (vitest's) miniflare never fetches Request.cf.
    env: {
      POSTGRES_MEMORY_DSN: "",
      NODE_ENV: "development",
      A2A_AUTH: "",
      A2A_API_KEYS: "",
      ...env,
    },
    readyMs: 120_000,
    pollMs: 200,
  });
}

/** SIGINT, then waits for the process to exit. */
export async function stopLlamonRun(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGINT");
  await exited;
}

/**
 * A v0.3 `message/send` of `text` in `contextId`; resolves to the reply's text. An error the
 * agent marks retryable (a database deadline on a loaded machine) is retried as a client
 * would, with the same messageId (answered at most once); any other error throws with the
 * agent's answer.
 */
export async function sendMessage(port: number, contextId: string, text: string): Promise<string> {
  const messageId = crypto.randomUUID();
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: messageId,
    method: "message/send",
    params: { message: { contextId, messageId, role: "user", parts: [{ kind: "text", text }] } },
  });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const json = (await res.json()) as {
      result?: { status: { message: { parts: { text: string }[] } } };
      error?: { data?: { retryable?: boolean } };
    };
    if (json.result !== undefined) {
      return json.result.status.message.parts.map((p) => p.text).join("");
    }
    if (json.error?.data?.retryable !== true || attempt >= 3) {
      throw new Error(`message/send failed (HTTP ${res.status}): ${JSON.stringify(json)}`);
    }
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}
