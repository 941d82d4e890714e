/**
 * When something inside `llamon run` dies (the dev proxy's unhandled 'error' did),
 * wrangler and workerd were left running. The child group stops them — children and what
 * they started — and the crash is one line, not a stack trace.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ChildGroup } from "../../../packages/cli/src/cli/children.ts";

const FIXTURE = resolve(import.meta.dirname, "../../fixtures/children/crash.ts");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("child processes of a long-running command", () => {
  it.skipIf(process.platform === "win32")(
    "an uncaught exception stops the children and their children, in one line, exit 1",
    async () => {
      const proc = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
        env: { ...process.env, LLAMON_DEBUG: "" },
      });
      let out = "";
      let err = "";
      proc.stdout.on("data", (d) => {
        out += d;
      });
      proc.stderr.on("data", (d) => {
        err += d;
      });
      const [code] = await once(proc, "exit");
      const child = Number(/child (\d+)/.exec(out)?.[1]);
      const grandchild = Number(/grandchild (\d+)/.exec(out)?.[1]);
      expect(child, out + err).toBeGreaterThan(0);
      expect(grandchild, out + err).toBeGreaterThan(0);
      expect(code).toBe(1);
      expect(err).toContain("llamon stopped after an unexpected error: boom in the proxy");
      expect(err).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(await until(() => !alive(child) && !alive(grandchild), 5000)).toBe(true);
    },
    30_000,
  );

  it.skipIf(process.platform === "win32")(
    "a child that exited by itself leaves nothing behind once the group is stopped (wrangler's esbuild)",
    async () => {
      const group = new ChildGroup();
      // Like wrangler failing to start: it exits, and what it started lives on in its group.
      const script = `
        const c = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
        console.log(String(c.pid));
        setTimeout(() => process.exit(1), 100);
      `;
      const child = group.spawn(process.execPath, ["-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout?.on("data", (d) => {
        out += d;
      });
      await once(child, "exit");
      const grandchild = Number(out.trim());
      expect(grandchild).toBeGreaterThan(0);
      expect(alive(grandchild)).toBe(true);
      await group.stopAll();
      expect(await until(() => !alive(grandchild), 5000)).toBe(true);
    },
    30_000,
  );
});
