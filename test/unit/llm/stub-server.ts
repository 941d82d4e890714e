/**
 * A local stand-in for a model provider: an HTTP server on 127.0.0.1 that records every
 * request (method, path, headers, JSON body) and answers with queued canned replies.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CannedReply {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Never answer (for timeout tests). */
  hang?: boolean;
}

export interface StubServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly last: RecordedRequest | undefined;
  /** The JSON body of a recorded request (default: the last one); throws when there is none. */
  body<T = Record<string, unknown>>(index?: number): T;
  /** Queue replies, used in order; the last one repeats. */
  reply(...replies: CannedReply[]): void;
  close(): Promise<void>;
}

export async function startStub(): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  let queue: CannedReply[] = [{ status: 200, body: {} }];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const next = (queue.length > 1 ? queue.shift() : queue[0]) as CannedReply;
      if (next.hang) return;
      const payload = typeof next.body === "string" ? next.body : JSON.stringify(next.body ?? {});
      res.writeHead(next.status ?? 200, {
        "content-type": typeof next.body === "string" ? "text/plain" : "application/json",
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get last() {
      return requests.at(-1);
    },
    body<T>(index = -1): T {
      const req = requests.at(index);
      if (!req) throw new Error(`no request recorded at ${index}`);
      return req.body as T;
    },
    reply(...replies) {
      queue = replies;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The stub of a whole test file: started before its tests, its request log cleared
 * before each test, closed after them. Call at the top level of the file.
 */
export function useStub(): StubServer {
  let current: StubServer | undefined;
  const stub = (): StubServer => {
    if (!current) throw new Error("the stub server is not started yet");
    return current;
  };
  beforeAll(async () => {
    current = await startStub();
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    stub().requests.length = 0;
  });
  return {
    get url() {
      return stub().url;
    },
    get requests() {
      return stub().requests;
    },
    get last() {
      return stub().last;
    },
    body: <T>(index?: number): T => stub().body<T>(index),
    reply: (...replies) => stub().reply(...replies),
    close: () => stub().close(),
  };
}

/** A port nothing listens on (a server was started there and closed). */
export async function closedPort(): Promise<string> {
  const stub = await startStub();
  await stub.close();
  return stub.url;
}
