/**
 * The README's first command, end to end: `npm start` is `llamon run .` — embedded Postgres,
 * the Neon-protocol proxy and `wrangler dev` — then the product document's JSON over HTTP.
 * The restart runs the same data with A2A_AUTH=api_key: the official @a2a-js/sdk client and
 * `llamon chat --token` authenticate, and the conversation stored without authentication
 * belongs to the key whose principal is `anonymous`.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { afterAll, describe, expect, it } from "vitest";
import { sdkUserMessage } from "../helpers/a2a-sdk.ts";
import {
  freePort,
  llamon,
  REPO,
  sendMessage,
  startReferenceAgent,
  stopLlamonRun,
} from "../helpers/llamon-run.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const start = startReferenceAgent;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The official client, sending `key` as `Authorization: Bearer` through the SDK's auth wrapper. */
async function sdkClient(port: number, key: string) {
  const fetchImpl = createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ authorization: `Bearer ${key}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`http://127.0.0.1:${port}`);
}

const userMessage = (text: string, contextId = ""): Message => sdkUserMessage(text, contextId);

function firstLineOf(task: Task): string {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === "text");
  return (part?.content?.$case === "text" ? part.content.value : "").split("\n")[0] ?? "";
}

/** `llamon chat <url> -m <text> --context-id <id>` with `env`; its exit code and output. */
async function chatOnce(url: string, contextId: string, env: Record<string, string>) {
  const child = llamon(["chat", url, "-m", "hello again", "--context-id", contextId], REPO, env);
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const code = await new Promise<number>((r) => child.once("exit", (c) => r(c ?? 1)));
  return { code, out };
}

describe("npm start (llamon run .) — the reference agent", () => {
  it("R9.3 answers the product document's JSON, remembers by contextId, keeps it across a restart, prints no stack trace: where the official client and llamon chat --token authenticate with api_key", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llamon-start-"));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await start(port, dataDir);
    try {
      expect(first.output()).toContain("curl -s http://127.0.0.1:");
      expect(first.output()).toContain('"contextId":"user-alice-session"');
      expect(first.output()).toContain("A2A auth: none");
      const a = await sendMessage(port, "user-alice-session", "내 이름은 앨리스야");
      expect(a.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const b = await sendMessage(port, "user-alice-session", "이전에 뭐 얘기했지?");
      expect(b.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
      expect(b).toContain("내 이름은 앨리스야");
      // Offline, wrangler's Request.cf download printed a getaddrinfo stack twice.
      expect(first.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(first.output()).not.toContain("ENOTFOUND");
    } finally {
      await stopLlamonRun(first.child);
    }
    // --state-dir: wrangler kept the Durable Objects' state there, not in the repository.
    expect((await readdir(join(dataDir, "wrangler"))).length).toBeGreaterThan(0);

    // Restart with API keys: the old (anonymous) thread goes to the key named "anonymous".
    const ownerKey = `k-${crypto.randomUUID()}`;
    const aliceKey = `k-${crypto.randomUUID()}`;
    const second = await start(port, dataDir, {
      A2A_AUTH: "api_key",
      A2A_API_KEYS: `anonymous=${sha256(ownerKey)},alice=${sha256(aliceKey)}`,
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      const refused = await fetch(`${url}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          method: "message/send",
          params: {
            message: {
              contextId: "user-alice-session",
              role: "user",
              parts: [{ kind: "text", text: "hi" }],
            },
          },
        }),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="a2a"');
      expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32040);

      const owner = await sdkClient(port, ownerKey);
      const card = await owner.getAgentCard();
      expect(Object.keys(card.securitySchemes)).toEqual(["apiKey"]);
      const c = (await owner.sendMessage({
        tenant: "",
        message: userMessage("still there?", "user-alice-session"),
        configuration: undefined,
        metadata: undefined,
      })) as Task;
      expect(firstLineOf(c)).toBe("offline-model: received=5 has_prior=true");

      const alice = await sdkClient(port, aliceKey);
      const mine = (await alice.sendMessage({
        tenant: "",
        message: userMessage("still there?", "user-alice-session"),
        configuration: undefined,
        metadata: undefined,
      })) as Task;
      expect(firstLineOf(mine)).toBe("offline-model: received=1 has_prior=false");
      await expect(
        alice.getTask({ tenant: "", id: c.id, historyLength: undefined }),
      ).rejects.toThrow(/not found/i);

      const chat = await chatOnce(url, "user-alice-session", { LLAMON_A2A_TOKEN: aliceKey });
      expect(chat.code, chat.out).toBe(0);
      expect(chat.out).toContain("offline-model: received=3 has_prior=true");
      const anonymous = await chatOnce(url, "user-alice-session", { LLAMON_A2A_TOKEN: "" });
      expect(anonymous.code).toBe(1);
      expect(anonymous.out).toContain("Pass --token <key> or set LLAMON_A2A_TOKEN");
    } finally {
      await stopLlamonRun(second.child);
    }
  }, 300_000);

  it("R9.3 when its port is taken, llamon run says so and exits 1 before it starts anything", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "llamon-busy-"));
    dirs.push(dataDir);
    const port = await freePort();
    // Listens and never answers (llamon's health poll connects to it too).
    const sockets = new Set<Socket>();
    const taken = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((r) => taken.listen(port, "127.0.0.1", r));
    try {
      const args = [".", "--port", String(port), "--embedded"];
      args.push("--data-dir", join(dataDir, "pgdata"), "--state-dir", join(dataDir, "wrangler"));
      const child = llamon(["run", ...args], REPO, { POSTGRES_MEMORY_DSN: "", A2A_AUTH: "" });
      let out = "";
      child.stdout?.on("data", (d) => {
        out += d;
      });
      child.stderr?.on("data", (d) => {
        out += d;
      });
      const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const [code] = await once(child, "exit");
      clearTimeout(killer);
      expect(code, out).toBe(1);
      expect(out).toContain(`error [PORT_IN_USE]: port ${port} on 127.0.0.1 is already in use`);
      // Checked before anything starts: no database, no proxy, no wrangler.
      expect(out).not.toContain("embedded Postgres");
      expect(out).not.toContain("Neon-protocol proxy");
      expect(out).not.toContain("wrangler");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => taken.close(r));
    }
  }, 90_000);
});
