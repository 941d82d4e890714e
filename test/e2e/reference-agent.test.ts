/**
 * The README's first command, end to end: `npm start` is `llamon run .` — embedded Postgres,
 * the Neon-protocol proxy and `wrangler dev` — then the product document's JSON over HTTP.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function start(
  port: number,
  dataDir: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(
    process.execPath,
    ["bin/llamon.mjs", "run", ".", "--port", String(port), "--embedded", "--data-dir", dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, POSTGRES_MEMORY_DSN: "" },
    },
  );
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const deadline = Date.now() + 120_000;
  while (!out.includes("is running at")) {
    if (child.exitCode !== null) throw new Error(`llamon run exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`llamon run did not get ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGINT");
  await exited;
}

async function send(port: number, contextId: string, text: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    method: "message/send",
    params: { message: { contextId, role: "user", parts: [{ kind: "text", text }] } },
  });
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = (await res.json()) as {
    result: { status: { message: { parts: { text: string }[] } } };
  };
  return json.result.status.message.parts.map((p) => p.text).join("");
}

describe("npm start (llamon run .) — the reference agent", () => {
  it("R9.3 answers the product document's JSON, remembers by contextId, and keeps it across a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llamon-start-"));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await start(port, dataDir);
    try {
      expect(first.output()).toContain("curl -s http://127.0.0.1:");
      expect(first.output()).toContain('"contextId":"user-alice-session"');
      const a = await send(port, "user-alice-session", "내 이름은 앨리스야");
      expect(a.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const b = await send(port, "user-alice-session", "이전에 뭐 얘기했지?");
      expect(b.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
      expect(b).toContain("내 이름은 앨리스야");
    } finally {
      await stop(first.child);
    }
    const second = await start(port, dataDir);
    try {
      const c = await send(port, "user-alice-session", "still there?");
      expect(c.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    } finally {
      await stop(second.child);
    }
  }, 300_000);
});
