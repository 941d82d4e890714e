/** Running npm from the CLI (pack, install, cache add, ci) with its output captured. */
import { spawn } from "node:child_process";
import { LlamonError } from "../errors.ts";

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

export function runNpm(args: readonly string[], options: NpmOptions): Promise<NpmResult> {
  const npm = npmInvocation();
  return new Promise((resolve, reject) => {
    const child = spawn(npm.command, [...npm.args, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, npm_config_update_notifier: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      shell: npm.shell,
    });
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

/** Run npm and fail with its last lines of output when it fails. */
export async function npmOrFail(
  args: readonly string[],
  options: NpmOptions & { what: string; hint?: string },
): Promise<NpmResult> {
  const result = await runNpm(args, options);
  if (result.code !== 0) {
    const tail = (result.stderr || result.stdout).trim().split("\n").slice(-12).join("\n");
    throw new LlamonError(
      "CONFIG_INVALID",
      `${options.what} failed (npm ${args.join(" ")} exited with ${result.code})${options.hint ? `: ${options.hint}` : ""}\n${tail}`,
    );
  }
  return result;
}
