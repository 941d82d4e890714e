/**
 * In Node, Neon's driver sends through llamon's HTTP/1.1 client on Node's sockets
 * (src/store/node-http-fetch.ts): createNeonDb installs it once, an application's own
 * `neonConfig.fetchFunction` wins, the request is the driver's (method, headers, UTF-8
 * body), connections are reused, concurrent requests never get each other's answers, https
 * verifies the certificate, and a cut answer, a refused connection, a deadline, a malformed
 * answer or a header that cannot be sent fail clearly. Outside Node nothing is installed.
 * The rest of the integration suite (faults, deadlines, every NeonSaver test) runs on it too.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import { resolve as resolvePath } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nodeHttpFetch } from "../../src/store/node-http-fetch.ts";
import { atHost, startTestBackend, type TestBackend } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";

async function listen(server: NetServer, scheme = "http", host = "127.0.0.1"): Promise<string> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `${scheme}://${host}:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: NetServer): Promise<void> {
  await new Promise((done) => server.close(done));
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

const TLS_DIR = resolvePath(import.meta.dirname, "../fixtures/tls");

function sender(options: Parameters<typeof nodeHttpFetch>[1] = {}) {
  const send = nodeHttpFetch(node, options);
  if (send === undefined) throw new Error("expected Node's transport");
  return send;
}

/** A server that answers each request with what `answer` writes on the raw socket. */
async function rawServer(answer: (socket: Socket, request: string, index: number) => void) {
  let requests = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffered = "";
    socket.on("data", (data) => {
      buffered += data.toString("latin1");
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const request = buffered.slice(0, end + 4 + length);
      buffered = buffered.slice(end + 4 + length);
      answer(socket, request, requests++);
    });
  });
  const url = await listen(server);
  return {
    url,
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    open: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

const OK_ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";

/** A raw server that answers every request with `{}`. */
function okServer() {
  return rawServer((socket) => {
    socket.write(OK_ANSWER);
  });
}

/** A client of its own, and a POST of `{}` to `url` through it. */
function poster(url: string, options: Parameters<typeof sender>[0] = {}) {
  const send = sender(options);
  return () => send(`${url}/sql`, { method: "POST", body: "{}" });
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the socket client", () => {
  it("a chunked answer in many writes, a character split between them, arrives whole", async () => {
    const text = JSON.stringify({ rows: [["서울 마포구에 살아요 🙂", "김민지"]] });
    const bytes = Buffer.from(text, "utf8");
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        // Odd-sized writes cut the UTF-8 sequences of the Korean text and the emoji.
        for (let at = 0; at < bytes.length; at += 5) res.write(bytes.subarray(at, at + 5));
        res.end();
      });
    });
    const url = await listen(server);
    try {
      const res = await sender()(`${url}/sql`, { method: "POST", body: "{}" });
      expect(await res.text()).toBe(text);
      expect(await res.json()).toEqual(JSON.parse(text));
    } finally {
      server.closeAllConnections();
      await closeServer(server);
    }
  });

  it("R10.1 20 concurrent requests answered in reverse order each get their own answer", async () => {
    let connections = 0;
    const server = createServer((req, res) => {
      void bodyOf(req).then((body) => {
        const n = Number(JSON.parse(body).n);
        // The first request is answered last.
        setTimeout(() => res.end(JSON.stringify({ n, echo: body })), (20 - n) * 5);
      });
    });
    server.on("connection", () => {
      connections++;
    });
    const url = await listen(server);
    try {
      const send = sender();
      const bodies = Array.from({ length: 20 }, (_, n) =>
        JSON.stringify({ n, pad: "가".repeat(n * 50) }),
      );
      const answers = await Promise.all(
        bodies.map((body) => send(`${url}/sql`, { method: "POST", body }).then((r) => r.json())),
      );
      for (const [n, answer] of answers.entries()) expect(answer).toEqual({ n, echo: bodies[n] });
      expect(connections).toBe(20);
      // The connections are kept and reused: 20 more requests open none.
      await Promise.all(bodies.map((body) => send(`${url}/sql`, { method: "POST", body })));
      expect(connections).toBe(20);
    } finally {
      server.closeAllConnections();
      await closeServer(server);
    }
  });

  it("opens a new connection after `Connection: close`, after the server closed an idle one, and after a short Keep-Alive", async () => {
    const server = await rawServer((socket, _request, index) => {
      const header =
        index === 0 ? "Connection: close\r\n" : index === 2 ? "Keep-Alive: timeout=1\r\n" : "";
      socket.write(`HTTP/1.1 200 OK\r\n${header}Content-Length: 2\r\n\r\n{}`);
      if (index === 0) socket.end();
      if (index === 1) setTimeout(() => socket.end(), 20); // closes while idle
    });
    try {
      const post = poster(server.url);
      expect((await post()).ok).toBe(true);
      expect((await post()).ok).toBe(true);
      expect(server.connections).toBe(2);
      await until(() => server.open() === 0);
      // The idle connection the server closed is not used: no error, a new connection.
      expect((await post()).ok).toBe(true);
      expect(server.connections).toBe(3);
      // `Keep-Alive: timeout=1` leaves under a second of idle time: not kept.
      expect((await post()).ok).toBe(true);
      expect(server.connections).toBe(4);
    } finally {
      await server.close();
    }
  });

  it("closes idle connections after the idle time, and reuses them before it", async () => {
    const server = await okServer();
    try {
      const post = poster(server.url, { idleMs: 300 });
      await post();
      await post();
      expect(server.connections).toBe(1);
      expect(server.open()).toBe(1);
      await until(() => server.open() === 0, 3000);
      await post();
      expect(server.connections).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("never sends on a connection past its idle time, even when the timer that closes it is late", async () => {
    const server = await okServer();
    try {
      const post = poster(server.url, { idleMs: 100 });
      await post();
      // The event loop is busy past the idle time: the timer cannot run before the next send.
      const busyUntil = Date.now() + 250;
      while (Date.now() < busyUntil) {
        /* a long synchronous turn */
      }
      await post();
      expect(server.connections).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("R10.1 a malformed answer or bytes nobody asked for fail the request and drop the connection", async () => {
    const server = await rawServer((socket, _request, index) => {
      if (index === 0) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}EXTRA");
      else if (index === 1) socket.write("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n{}");
      else if (index === 2) {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        setTimeout(() => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]"), 30);
      } else socket.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ntrue");
    });
    try {
      // Kept idle far longer than the test: only the unasked-for bytes can close it.
      const post = poster(server.url, { idleMs: 60_000 });
      await expect(post()).rejects.toThrow(/not valid HTTP\/1\.1: bytes arrived after the end/);
      await expect(post()).rejects.toThrow(/not valid HTTP\/1\.1: its Content-Length is invalid/);
      expect(await (await post()).text()).toBe("{}");
      // The unasked-for answer closes that connection; the next request does not read it.
      await until(() => server.open() === 0);
      expect(await (await post()).text()).toBe("true");
      expect(server.connections).toBe(4);
    } finally {
      await server.close();
    }
  });

  it("an abort closes the request's connection; the next request works; an aborted signal sends nothing", async () => {
    const server = await rawServer((socket, _request, index) => {
      if (index > 0) socket.write(OK_ANSWER);
    });
    try {
      const send = sender();
      const controller = new AbortController();
      const pending = send(`${server.url}/sql`, {
        method: "POST",
        body: "{}",
        signal: controller.signal,
      });
      await until(() => server.requests === 1);
      controller.abort(new Error("the turn gave up"));
      await expect(pending).rejects.toThrow("the turn gave up");
      await until(() => server.open() === 0);
      expect((await send(`${server.url}/sql`, { method: "POST", body: "{}" })).ok).toBe(true);
      const before = server.connections;
      await expect(
        send(`${server.url}/sql`, { method: "POST", body: "{}", signal: AbortSignal.abort() }),
      ).rejects.toThrow(/abort/i);
      expect(server.connections).toBe(before);
      expect(server.requests).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("a header that would split the request is refused before anything is sent, without showing its value", async () => {
    const server = await okServer();
    try {
      const send = sender();
      const secret = "postgresql://u:s3cret@h/db\r\nX-Injected: 1";
      const error = await send(`${server.url}/sql`, {
        method: "POST",
        body: "{}",
        headers: { "Neon-Connection-String": secret },
      }).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/Neon-Connection-String holds a character/);
      expect((error as Error).message).not.toContain("s3cret");
      await expect(
        send(`${server.url}/sql`, { method: "POST", body: "{}", headers: { "Bad Name": "x" } }),
      ).rejects.toThrow(/invalid name/);
      for (const method of ["PO ST", "HEAD", "CONNECT"]) {
        await expect(send(`${server.url}/sql`, { method, body: "{}" })).rejects.toThrow(
          /a POST or a GET/,
        );
      }
      expect(server.connections).toBe(0);
      // The client sets Host and Content-Length itself; a caller's own are not sent.
      const res = await send(`${server.url}/sql`, {
        method: "POST",
        body: "{}",
        headers: { "Content-Length": "999", Host: "elsewhere" },
      });
      expect(res.ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("https: verifies the certificate (refused when untrusted) and sends the same request over TLS", async () => {
    const cert = readFileSync(resolvePath(TLS_DIR, "localhost.crt"), "utf8");
    const key = readFileSync(resolvePath(TLS_DIR, "localhost.key"), "utf8");
    const server = createHttpsServer({ cert, key }, (req, res) => {
      void bodyOf(req).then((body) =>
        res.end(JSON.stringify({ echo: body, host: req.headers.host })),
      );
    });
    const url = await listen(server, "https", "localhost");
    try {
      await expect(sender()(`${url}/sql`, { method: "POST", body: "{}" })).rejects.toThrow(
        /self[- ]signed|unable to verify|certificate/i,
      );
      const send = sender({ ca: cert });
      const body = JSON.stringify({ query: "SELECT $1", params: ["한국어"] });
      const res = await send(`${url}/sql`, { method: "POST", body });
      expect(await res.json()).toEqual({ echo: body, host: new URL(url).host });
      // The name must match the certificate: 127.0.0.1 is in it, another name is not.
      const ip = url.replace("localhost", "127.0.0.1");
      expect((await send(`${ip}/sql`, { method: "POST", body })).ok).toBe(true);
    } finally {
      server.closeAllConnections();
      await closeServer(server);
    }
  });

  it("idle connections do not keep the process alive", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("{}"));
    });
    // The server never closes an idle connection itself (its default is 5 s).
    server.keepAliveTimeout = 0;
    const url = await listen(server);
    try {
      const script = `
        const { nodeHttpFetch } = await import(${JSON.stringify(resolvePath(import.meta.dirname, "../../src/store/node-http-fetch.ts"))});
        const send = nodeHttpFetch(undefined, { idleMs: 600000 });
        const res = await send(${JSON.stringify(`${url}/sql`)}, { method: "POST", body: "{}" });
        console.log("answered", res.status);
      `;
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      child.stdout.on("data", (d) => {
        out += String(d);
      });
      child.stderr.on("data", (d) => {
        out += String(d);
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const [code] = await once(child, "exit");
      clearTimeout(timer);
      // Killed (code null) means the idle connection held the process for its 10 minutes.
      expect(code, out).toBe(0);
      expect(out).toContain("answered 200");
    } finally {
      server.closeAllConnections();
      await closeServer(server);
    }
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
      connectionString: atHost(backend.neonDsn, "node-fetch.localhost"),
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
      connectionString: atHost(backend.neonDsn, "own-fetch.localhost"),
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
