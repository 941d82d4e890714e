/**
 * A fault-injecting front for the local Neon-protocol proxy (dev and tests only; never
 * bundled). It listens on 127.0.0.1, forwards every request unchanged to the Neon proxy
 * behind it, and — when a fault is armed for the step the request belongs to — fails that
 * request the way a network or Neon can:
 *
 * - `refuse`: the listener is closed, so the connection is refused (ECONNREFUSED). Armed for
 *   the `read` step it goes down at once; armed for `write` it goes down right after the next
 *   read was answered (that answer carries `Connection: close`, so no kept-alive socket
 *   survives). `restore()` listens again on the same port.
 * - `http500`: answered 500 with Neon's error body (`message` "Couldn't connect to compute
 *   node…") without forwarding (nothing ran).
 * - `timeout`: held without forwarding until the client gives up (its fetch abort) or
 *   `holdMs` passes; nothing ran.
 * - `timeout-after-commit`: forwarded and answered by Postgres (the batch committed), then
 *   held until the client gives up; the client never sees the answer.
 * - `drop-after-commit`: forwarded and answered (committed), then the socket is destroyed
 *   instead of answering.
 * - `late-commit` (write step): held until the client gives up, then kept until the next read
 *   has run, and only then forwarded — so it commits while the client's retry is in flight
 *   (between the retry's read and its write; that write waits for the late one to finish).
 *
 * Steps: a request whose `Neon-Batch-Read-Only` header is `true` is a `read` (NeonSaver's
 * getTuple batch); every other request is a `write` (put, putWrites, …). Faults are armed
 * with `inject(...)`, each for a number of matching requests (default 1). The Neon proxy
 * behind is unchanged; with no fault armed this front only relays.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { neonErrorBody } from "./neon-protocol.ts";

export const FAULT_KINDS = [
  "refuse",
  "http500",
  "timeout",
  "timeout-after-commit",
  "drop-after-commit",
  "late-commit",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultStep = "read" | "write";

export interface FaultRule {
  readonly step: FaultStep;
  readonly kind: FaultKind;
  /** How many matching requests fail (default 1; `refuse` stays down until `restore()`). */
  readonly times?: number;
}

export interface FaultLogEntry {
  readonly step: FaultStep;
  /** The fault applied to this request, or null when it was relayed. */
  readonly fault: FaultKind | null;
  /** Status the Neon proxy answered (undefined when the request was not forwarded). */
  readonly upstreamStatus: number | undefined;
}

export interface FaultProxyOptions {
  /** The Neon proxy to forward to, e.g. http://127.0.0.1:4444/sql. */
  readonly target: string;
  /** 0 (default) picks a free port. Always binds 127.0.0.1. */
  readonly port?: number;
  /** Longest a `timeout` fault holds a request when the client does not give up (default 60 s). */
  readonly holdMs?: number;
}

export interface FaultProxy {
  /** Give it to the Neon driver as fetch endpoint. */
  readonly url: string;
  readonly port: number;
  /** Every request seen, in order. */
  readonly log: readonly FaultLogEntry[];
  /** Whether the listener is up (false after a `refuse` fault until `restore()`). */
  readonly listening: boolean;
  inject(rule: FaultRule): void;
  /** Disarm every fault (does not restore a closed listener). */
  clear(): void;
  /** Listen again after a `refuse` fault. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Armed {
  step: FaultStep;
  kind: FaultKind;
  left: number;
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const holdMs = options.holdMs ?? 60_000;
  const armed: Armed[] = [];
  const log: FaultLogEntry[] = [];
  const sockets = new Set<Socket>();
  let listening = false;
  let port = options.port ?? 0;
  /** A `refuse` armed for the write step: go down after the next read is answered. */
  let downAfterRead = false;
  /** A `late-commit` request waiting for the next read (release), and its forward (done). */
  let late: { release: () => void; done: Promise<void> } | undefined;

  const server: Server = createServer((req, res) => {
    handle(req).then(
      (outcome) => {
        if (outcome.kind === "drop") {
          req.socket.destroy();
          return;
        }
        const headers = { ...outcome.headers };
        if (outcome.closeAfter) headers.connection = "close";
        res.writeHead(outcome.status, headers);
        res.end(outcome.body, () => {
          if (outcome.closeAfter) void goDown();
        });
      },
      () => req.socket.destroy(),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  type Outcome =
    | { kind: "drop" }
    | {
        kind: "answer";
        status: number;
        headers: Record<string, string>;
        body: Buffer;
        closeAfter: boolean;
      };

  async function handle(req: IncomingMessage): Promise<Outcome> {
    const body = await readAll(req);
    const step: FaultStep = req.headers["neon-batch-read-only"] === "true" ? "read" : "write";
    const fault = take(step);
    const entry = (upstreamStatus: number | undefined): void => {
      log.push({ step, fault, upstreamStatus });
    };
    switch (fault) {
      case "http500":
        entry(undefined);
        return answer(500, neonErrorBody("Couldn't connect to compute node (injected fault)"));
      case "timeout":
        entry(undefined);
        await untilGone(req, holdMs);
        return { kind: "drop" };
      case "late-commit": {
        await untilGone(req, holdMs);
        let release = () => {};
        const released = new Promise<void>((r) => {
          release = r;
        });
        let finish = () => {};
        late = { release: () => release(), done: new Promise<void>((r) => (finish = r)) };
        await released;
        try {
          entry((await forward(req, body)).status);
        } finally {
          late = undefined;
          finish();
        }
        return { kind: "drop" };
      }
      default:
        break;
    }
    if (step === "write" && late !== undefined) await late.done;
    const upstream = await forward(req, body);
    if (step === "read") late?.release();
    entry(upstream.status);
    if (fault === "drop-after-commit") return { kind: "drop" };
    if (fault === "timeout-after-commit") {
      await untilGone(req, holdMs);
      return { kind: "drop" };
    }
    const closeAfter = step === "read" && downAfterRead;
    if (closeAfter) downAfterRead = false;
    return { kind: "answer", ...upstream, closeAfter };
  }

  /** The fault for a request of this step, consuming one use of the first matching rule. */
  function take(step: FaultStep): FaultKind | null {
    const rule = armed.find((r) => r.step === step && r.kind !== "refuse" && r.left > 0);
    if (rule === undefined) return null;
    rule.left -= 1;
    if (rule.left === 0) armed.splice(armed.indexOf(rule), 1);
    return rule.kind;
  }

  function forward(req: IncomingMessage, body: Buffer): Promise<Upstream> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === "string" && k !== "host" && !HOP_BY_HOP.has(k)) headers[k] = v;
      }
      headers["content-length"] = String(body.length);
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: req.method,
          headers,
        },
        (res) => {
          readAll(res).then((buf) => {
            const out: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) {
              if (typeof v === "string" && !HOP_BY_HOP.has(k)) out[k] = v;
            }
            out["content-length"] = String(buf.length);
            resolve({ status: res.statusCode ?? 502, headers: out, body: buf });
          }, reject);
        },
      );
      upstream.on("error", reject);
      upstream.end(body);
    });
  }

  function answer(status: number, json: unknown): Outcome {
    const body = Buffer.from(JSON.stringify(json));
    return {
      kind: "answer",
      status,
      headers: { "content-type": "application/json", "content-length": String(body.length) },
      body,
      closeAfter: false,
    };
  }

  async function listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    listening = true;
  }

  async function goDown(): Promise<void> {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  }

  await listen();

  return {
    get url() {
      return `http://127.0.0.1:${port}/sql`;
    },
    get port() {
      return port;
    },
    log,
    get listening() {
      return listening;
    },
    inject(rule) {
      const times = rule.times ?? 1;
      if (rule.kind === "refuse") {
        if (rule.step === "read") void goDown();
        else downAfterRead = true;
        return;
      }
      armed.push({ step: rule.step, kind: rule.kind, left: times });
    },
    clear() {
      armed.length = 0;
      downAfterRead = false;
    },
    async restore() {
      if (!listening) await listen();
    },
    async close() {
      armed.length = 0;
      await goDown();
    },
  };
}

/** Headers of one connection, not of the message: never relayed. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "te",
  "trailer",
  "upgrade",
]);

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** Resolves when the client closes the connection (its abort) or after `ms`. */
function untilGone(req: IncomingMessage, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (req.socket.destroyed) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      req.socket.off("close", done);
      resolve();
    }
    req.socket.once("close", done);
  });
}
