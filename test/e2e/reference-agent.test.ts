/**
 * The README's first command, end to end: `npm start` is `llamon run .` — embedded Postgres,
 * the Neon-protocol proxy and `wrangler dev` — then the product document's JSON over HTTP.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  freePort,
  REPO,
  sendMessage,
  startLlamonRun,
  stopLlamonRun,
} from "../helpers/llamon-run.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function start(port: number, dataDir: string) {
  return startLlamonRun([".", "--port", String(port), "--embedded", "--data-dir", dataDir], {
    cwd: REPO,
    // As in a user's shell: under NODE_ENV=test (vitest's) miniflare never fetches Request.cf.
    env: { POSTGRES_MEMORY_DSN: "", NODE_ENV: "development" },
    readyMs: 120_000,
    pollMs: 200,
  });
}

describe("npm start (llamon run .) — the reference agent", () => {
  it("R9.3 issue 15: answers the product document's JSON, remembers by contextId, keeps it across a restart, prints no stack trace", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llamon-start-"));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await start(port, dataDir);
    try {
      expect(first.output()).toContain("curl -s http://127.0.0.1:");
      expect(first.output()).toContain('"contextId":"user-alice-session"');
      const a = await sendMessage(port, "user-alice-session", "내 이름은 앨리스야");
      expect(a.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const b = await sendMessage(port, "user-alice-session", "이전에 뭐 얘기했지?");
      expect(b.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
      expect(b).toContain("내 이름은 앨리스야");
      // issue 15: offline, wrangler's Request.cf download printed a getaddrinfo stack twice.
      expect(first.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(first.output()).not.toContain("ENOTFOUND");
    } finally {
      await stopLlamonRun(first.child);
    }
    const second = await start(port, dataDir);
    try {
      const c = await sendMessage(port, "user-alice-session", "still there?");
      expect(c.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    } finally {
      await stopLlamonRun(second.child);
    }
  }, 300_000);
});
