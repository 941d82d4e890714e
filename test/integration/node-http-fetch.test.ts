/**
 * In Node, Neon's driver sends through Node's own HTTP client (src/store/node-http-fetch.ts):
 * createNeonDb installs it once, an application's own `neonConfig.fetchFunction` wins, the
 * request is the driver's (method, headers, UTF-8 body), connections are reused, and a cut
 * answer, a refused connection or a deadline fail clearly. Outside Node nothing is installed.
 * The rest of the integration suite (faults, deadlines, every NeonSaver test) runs on it too.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nodeHttpFetch } from "../../src/store/node-http-fetch.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const node = {
  userAgent: "Node.js/22",
  getBuiltinModule: (id: string) => process.getBuiltinModule(id),
};

describe("nodeHttpFetch", () => {
  let server: Server;
  let url: string;
  let connections = 0;
  const seen: { method: string; headers: IncomingMessage["headers"]; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      void bodyOf(req).then((body) => {
        seen.push({ method: req.method ?? "", headers: req.headers, body });
        if (req.url === "/cut") {
          res.writeHead(200, { "content-length": "1000" });
          res.write('{"partial":');
          setTimeout(() => res.destroy(), 10);
          return;
        }
        if (req.url === "/slow") return; // never answers
        const status = req.url === "/bad" ? 400 : 200;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ echo: body }));
      });
    });
    server.on("connection", () => {
      connections++;
    });
    url = await listen(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is used only in Node: another runtime, or one without process.getBuiltinModule, keeps fetch", () => {
    expect(nodeHttpFetch(node)).toBeTypeOf("function");
    expect(nodeHttpFetch({ ...node, userAgent: "Cloudflare-Workers" })).toBeUndefined();
    expect(nodeHttpFetch({ ...node, userAgent: undefined })).toBeUndefined();
    expect(nodeHttpFetch({ ...node, getBuiltinModule: undefined })).toBeUndefined();
  });

  it("sends the driver's POST with its headers and a UTF-8 body, and gives ok, status, json and text", async () => {
    const send = nodeHttpFetch(node);
    if (send === undefined) throw new Error("expected Node's transport");
    const body = JSON.stringify({ query: "SELECT $1", params: ["서울 마포구에 살아요 🙂"] });
    const res = await send(`${url}/sql`, {
      method: "POST",
      body,
      headers: { "Neon-Connection-String": "postgresql://u:p@h/db", "Neon-Array-Mode": "true" },
    });
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echo: body });
    const last = seen.at(-1);
    expect(last?.method).toBe("POST");
    expect(last?.body).toBe(body);
    expect(last?.headers["neon-connection-string"]).toBe("postgresql://u:p@h/db");
    expect(last?.headers["neon-array-mode"]).toBe("true");
    expect(Number(last?.headers["content-length"])).toBe(Buffer.byteLength(body));

    const bad = await send(`${url}/bad`, { method: "POST", body: "{}" });
    expect(bad.ok).toBe(false);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe(JSON.stringify({ echo: "{}" }));
  });

  it("reuses one connection for requests one after another", async () => {
    const send = nodeHttpFetch(node);
    if (send === undefined) throw new Error("expected Node's transport");
    const before = connections;
    for (let i = 0; i < 5; i++) {
      expect((await send(`${url}/sql`, { method: "POST", body: String(i) })).ok).toBe(true);
    }
    expect(connections - before).toBe(1);
  });

  it("rejects an answer cut off before its end, a refused connection, an aborted request and a non-HTTP URL", async () => {
    const send = nodeHttpFetch(node);
    if (send === undefined) throw new Error("expected Node's transport");
    await expect(send(`${url}/cut`, { method: "POST", body: "{}" })).rejects.toThrow(
      /closed before the database's whole answer arrived|aborted|socket hang up/,
    );
    const closed = createServer();
    const closedUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    await expect(send(`${closedUrl}/sql`, { method: "POST", body: "{}" })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    await expect(
      send(`${url}/slow`, { method: "POST", body: "{}", signal: AbortSignal.timeout(50) }),
    ).rejects.toThrow(/abort|timeout/i);
    await expect(send("ftp://127.0.0.1/sql", { method: "POST", body: "{}" })).rejects.toThrow(
      /http or https only/,
    );
  });
});

describe("createNeonDb in Node", () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await startTestBackend({ migrate: false });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it("R10.1 installs Node's transport once; every query and every batch is one HTTP request through it", async () => {
    vi.resetModules();
    const { neonConfig } = await import("@neondatabase/serverless");
    neonConfig.fetchFunction = undefined;
    const { createNeonDb } = await import("../../src/store/db-neon.ts");
    const db = createNeonDb({
      connectionString: "postgresql://postgres:local@node-fetch.localhost/llamon",
      fetchEndpoint: backend.proxy.url,
    });
    const installed = neonConfig.fetchFunction as (...a: unknown[]) => unknown;
    expect(installed).toBeTypeOf("function");
    expect(installed).not.toBe(globalThis.fetch);
    const spy = vi.fn(installed);
    neonConfig.fetchFunction = spy;
    expect((await db.query<{ n: number }>("SELECT 1 AS n")).rows).toEqual([{ n: 1 }]);
    const [a, b] = await db.batch([
      { text: "SELECT $1::text AS t", params: ["한국어"] },
      { text: "SELECT 2 AS n", params: [] },
    ]);
    expect(a?.rows).toEqual([{ t: "한국어" }]);
    expect(b?.rows).toEqual([{ n: 2 }]);
    expect(spy).toHaveBeenCalledTimes(2);
    // A second Db does not replace what is there.
    createNeonDb({ connectionString: "postgresql://u:p@other.localhost/db" });
    expect(neonConfig.fetchFunction).toBe(spy);
    neonConfig.fetchFunction = undefined;
  });

  it("leaves an application's own fetchFunction in place", async () => {
    vi.resetModules();
    const { neonConfig } = await import("@neondatabase/serverless");
    const own = vi.fn((input: string, init?: RequestInit) => fetch(input, init));
    neonConfig.fetchFunction = own;
    const { createNeonDb } = await import("../../src/store/db-neon.ts");
    const db = createNeonDb({
      connectionString: "postgresql://postgres:local@own-fetch.localhost/llamon",
      fetchEndpoint: backend.proxy.url,
    });
    expect(neonConfig.fetchFunction).toBe(own);
    expect((await db.query<{ n: number }>("SELECT 1 AS n")).rows).toEqual([{ n: 1 }]);
    expect(own).toHaveBeenCalledTimes(1);
    neonConfig.fetchFunction = undefined;
  });

  it("a database that refuses the connection is DB_UNAVAILABLE", async () => {
    const closed = createServer();
    const closedUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    vi.resetModules();
    const { neonConfig } = await import("@neondatabase/serverless");
    neonConfig.fetchFunction = undefined;
    const { createNeonDb } = await import("../../src/store/db-neon.ts");
    const { isLlamonError } = await import("../../src/errors.ts");
    const db = createNeonDb({
      connectionString: "postgresql://postgres:local@refusing.localhost/llamon",
      fetchEndpoint: `${closedUrl}/sql`,
    });
    const error = await caught(db.query("SELECT 1"));
    expect(isLlamonError(error, "DB_UNAVAILABLE"), String(error)).toBe(true);
    expect(String(error)).toContain("ECONNREFUSED");
    expect(neonConfig.fetchFunction).not.toBeUndefined();
    neonConfig.fetchFunction = undefined;
  });
});
