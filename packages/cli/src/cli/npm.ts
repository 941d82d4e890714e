/** Running npm from the CLI (pack, install, cache add, ci) with its output captured. */
import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ErrorCode, LlamonError } from "llamon/errors";
import { onStopSignals, warn } from "./output.ts";

export interface NpmResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface NpmOptions {
  readonly cwd: string;
  readonly env?: Record<string, string | undefined>;
  /** Called with each chunk of npm's stderr (progress). */
  readonly onOutput?: (text: string) => void;
}

/** The npm that launched us (npm_execpath, e.g. under `npx`), else `npm` on PATH. */
function npmInvocation(): { command: string; args: string[]; shell: boolean } {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.c?js$/.test(execPath)) {
    return { command: process.execPath, args: [execPath], shell: false };
  }
  const win = process.platform === "win32";
  return { command: win ? "npm.cmd" : "npm", args: [], shell: win };
}

/** npm processes still running; none outlives llamon (see {@link keepWhileRunning}). */
const running = new Set<ChildProcess>();
let releaseGuards: (() => void) | undefined;

function endRunning(): void {
  for (const child of running) child.kill("SIGTERM");
}

/**
 * While an npm runs, whatever ends llamon ends it too: SIGINT, SIGTERM or SIGHUP (exit
 * 128 + the signal's number, after a "cancelled" line, unless a spinner said it first and
 * exited) and any other exit. npm stops its own children on SIGTERM.
 */
function keepWhileRunning(child: ChildProcess, what: string): void {
  running.add(child);
  child.once("close", () => {
    running.delete(child);
    if (running.size === 0) {
      releaseGuards?.();
      releaseGuards = undefined;
    }
  });
  if (releaseGuards !== undefined) return;
  const offSignals = onStopSignals((code) => {
    warn(`cancelled: npm ${what}`);
    process.exit(code);
  });
  process.on("exit", endRunning);
  releaseGuards = () => {
    offSignals();
    process.off("exit", endRunning);
  };
}

export function runNpm(args: readonly string[], options: NpmOptions): Promise<NpmResult> {
  const npm = npmInvocation();
  return new Promise((resolve, reject) => {
    const child = spawn(npm.command, [...npm.args, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, npm_config_update_notifier: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      shell: npm.shell,
    });
    keepWhileRunning(child, args[0] ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      options.onOutput?.(d.toString());
    });
    child.once("error", (error) =>
      reject(
        new LlamonError(
          "CONFIG_INVALID",
          `cannot run npm (${error.message}): install Node.js with npm, or put npm on PATH`,
          { cause: error },
        ),
      ),
    );
    child.once("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/**
 * Where npm writes its debug logs when a command sets `--cache` to a folder that may be deleted
 * (npm's default is `<cache>/_logs`): the log an error points to must outlive the failure.
 */
export function npmLogsDir(): string {
  return join(tmpdir(), "llamon-npm-logs");
}

/** npm's error codes of a registry it could not reach (DNS, refused, timed out, offline). */
const NETWORK_ERRORS =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTCACHED|ERR_SOCKET_TIMEOUT)\b|^npm error code network\b/m;

/** NETWORK_UNAVAILABLE when npm's output says it could not reach the registry. */
export function npmFailureCode(output: string): ErrorCode {
  return NETWORK_ERRORS.test(output) ? "NETWORK_UNAVAILABLE" : "CONFIG_INVALID";
}

/** The last lines of npm's output (its error, and where its log is). */
export function npmTail(result: NpmResult): string {
  return (result.stderr || result.stdout).trim().split("\n").slice(-12).join("\n");
}

/** Run npm and fail with its last lines of output when it fails. */
export async function npmOrFail(
  args: readonly string[],
  options: NpmOptions & { what: string; hint?: string },
): Promise<NpmResult> {
  const result = await runNpm(args, options);
  if (result.code !== 0) {
    const output = `${result.stderr}\n${result.stdout}`;
    throw new LlamonError(
      npmFailureCode(output),
      `${options.what} failed (npm ${args.join(" ")} exited with ${result.code})${options.hint ? `: ${options.hint}` : ""}\n${npmTail(result)}`,
    );
  }
  return result;
}

/**
 * Can npm reach its registry from here? One `npm ping` without retries: it fails at once when
 * the host is unknown or refuses, where a download would retry for more than a minute. Only a
 * network failure throws (NETWORK_UNAVAILABLE); a registry that answers the ping with an error
 * (some private ones have no ping) is left to the real command.
 */
export async function assertRegistryReachable(cwd: string, hint: string): Promise<void> {
  const result = await runNpm(
    ["ping", "--fetch-retries=0", "--fetch-timeout=15000", "--logs-dir", npmLogsDir()],
    { cwd },
  );
  const output = `${result.stderr}\n${result.stdout}`;
  if (result.code === 0 || npmFailureCode(output) !== "NETWORK_UNAVAILABLE") return;
  const registry = /PING (\S+)/.exec(output)?.[1] ?? "the npm registry";
  throw new LlamonError(
    "NETWORK_UNAVAILABLE",
    `${registry} cannot be reached from here: ${hint}\n${npmTail(result)}`,
  );
}
