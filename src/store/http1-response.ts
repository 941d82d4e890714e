/**
 * Reading one HTTP/1.1 response off a connection (RFC 9112), for the small HTTP client the
 * Neon driver sends through in Node (./node-http-fetch.ts). Pure: bytes in, a response or
 * a clear error out; no I/O.
 *
 * One reader per request: the client sends one request on a connection and waits for its
 * whole answer before the next (no pipelining), so every byte the connection delivers
 * belongs to that answer. What the reader cannot frame exactly (a malformed status line or
 * header, conflicting lengths, a bad chunk, bytes after the end) is an error, and the
 * client then closes the connection: an answer is never cut short, run together with
 * another, or guessed.
 */

/** Most bytes of a response head (status line and headers), as Node's default. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Most bytes of a chunk-size line (with extensions) or of the trailer section. */
const MAX_LINE_BYTES = 4 * 1024;

export interface Http1Response {
  readonly status: number;
  readonly body: Buffer;
  /** The connection may carry the next request (HTTP/1.1 without `Connection: close`). */
  readonly reusable: boolean;
  /** The server's `Keep-Alive: timeout=N`, in ms, if it announced one. */
  readonly keepAliveMs: number | undefined;
}

/** A response the client cannot read; the connection it came on must be closed. */
export class Http1ProtocolError extends Error {
  override readonly name = "Http1ProtocolError";
}

type Framing =
  | { readonly kind: "length"; remaining: number }
  | { readonly kind: "chunked" }
  | { readonly kind: "close" }
  | { readonly kind: "none" };

type Phase = "head" | "body" | "chunk-size" | "chunk-data" | "chunk-end" | "trailers" | "done";

/** An HTTP token (RFC 9110): a method or a header name. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Why a request failed when its connection closed before the whole answer came. */
export const CUT_ANSWER =
  "the connection closed before the database's whole answer arrived (nothing in it was read)";
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");

interface Head {
  readonly minor: number;
  readonly status: number;
  readonly headers: ReadonlyMap<string, readonly string[]>;
}

function protocolError(message: string): Http1ProtocolError {
  return new Http1ProtocolError(`the database's answer is not valid HTTP/1.1: ${message}`);
}

function parseHead(text: string): Head {
  const lines = text.split("\r\n");
  const statusLine = STATUS_LINE.exec(lines[0] ?? "");
  if (statusLine === null) throw protocolError("the status line is malformed");
  const headers = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    if (line.startsWith(" ") || line.startsWith("\t")) {
      throw protocolError("a header is folded over two lines");
    }
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!HTTP_TOKEN.test(name)) throw protocolError("a header line has no valid name");
    const value = line.slice(colon + 1).trim();
    const key = name.toLowerCase();
    const list = headers.get(key);
    if (list === undefined) headers.set(key, [value]);
    else list.push(value);
  }
  return { minor: Number(statusLine[1]), status: Number(statusLine[2]), headers };
}

/** The comma-separated tokens of every line of a header, lowercased. */
function tokensOf(head: Head, name: string): string[] {
  return (head.headers.get(name) ?? []).flatMap((v) =>
    v
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== ""),
  );
}

function contentLength(head: Head): number | undefined {
  const values = (head.headers.get("content-length") ?? []).flatMap((v) =>
    v.split(",").map((t) => t.trim()),
  );
  if (values.length === 0) return undefined;
  const first = values[0] as string;
  if (!/^\d{1,15}$/.test(first) || values.some((v) => v !== first)) {
    throw protocolError("its Content-Length is invalid or given twice with different values");
  }
  return Number(first);
}

function keepAliveMs(head: Head): number | undefined {
  for (const part of (head.headers.get("keep-alive") ?? []).flatMap((v) => v.split(","))) {
    const match = /^\s*timeout\s*=\s*(\d{1,9})\s*$/i.exec(part);
    if (match !== null) return Number(match[1]) * 1000;
  }
  return undefined;
}

export class Http1ResponseReader {
  private phase: Phase = "head";
  /** Bytes received but not consumed yet (part of a head, a size line, trailers). */
  private pending: Buffer = Buffer.alloc(0);
  private readonly parts: Buffer[] = [];
  private head: Head | undefined;
  private framing: Framing = { kind: "none" };
  private chunkRemaining = 0;

  /**
   * Takes the next bytes of the connection. Returns the response once it is complete,
   * undefined while more is needed; throws Http1ProtocolError when it cannot be read.
   */
  push(chunk: Buffer): Http1Response | undefined {
    if (chunk.length === 0) return undefined;
    if (this.done()) throw protocolError("bytes arrived after the end of the answer");
    let data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = Buffer.alloc(0);
    while (data.length > 0 && !this.done()) {
      const rest = this.step(data);
      if (rest === undefined) return undefined; // waiting for more bytes
      data = rest;
    }
    if (!this.done()) return undefined;
    if (data.length > 0) throw protocolError("bytes arrived after the end of the answer");
    return this.result();
  }

  private done(): boolean {
    return this.phase === "done";
  }

  /**
   * The server closed the connection. Returns the response when its body ends with the
   * connection (no length given); otherwise the answer was cut off, which throws.
   */
  end(): Http1Response {
    if (this.phase === "body" && this.framing.kind === "close") {
      this.phase = "done";
      return this.result();
    }
    if (this.done()) return this.result();
    throw new Http1ProtocolError(CUT_ANSWER);
  }

  /** Consumes what it can of `data`; returns the unconsumed rest, or undefined to wait. */
  private step(data: Buffer): Buffer | undefined {
    switch (this.phase) {
      case "head":
        return this.readHead(data);
      case "body":
        return this.readBody(data);
      case "chunk-size":
        return this.readChunkSize(data);
      case "chunk-data":
        return this.readChunkData(data);
      case "chunk-end":
        return this.readChunkEnd(data);
      case "trailers":
        return this.readTrailers(data);
      case "done":
        return data;
    }
  }

  private wait(data: Buffer, limit: number, what: string): undefined {
    if (data.length > limit) throw protocolError(`${what} is longer than ${limit} bytes`);
    this.pending = data;
    return undefined;
  }

  private readHead(data: Buffer): Buffer | undefined {
    const end = data.indexOf(HEAD_END);
    if (end < 0) return this.wait(data, MAX_HEAD_BYTES, "its head");
    if (end > MAX_HEAD_BYTES)
      throw protocolError(`its head is longer than ${MAX_HEAD_BYTES} bytes`);
    const head = parseHead(data.toString("latin1", 0, end));
    const rest = data.subarray(end + HEAD_END.length);
    if (head.status < 200) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      if (head.status === 101) throw protocolError("the server switched protocols");
      return rest;
    }
    this.head = head;
    this.framing = this.framingOf(head);
    if (
      this.framing.kind === "none" ||
      (this.framing.kind === "length" && this.framing.remaining === 0)
    ) {
      this.phase = "done";
    } else {
      this.phase = this.framing.kind === "chunked" ? "chunk-size" : "body";
    }
    return rest;
  }

  private framingOf(head: Head): Framing {
    if (head.status === 204 || head.status === 304) return { kind: "none" };
    // The client asks for no compression (no Accept-Encoding): a coded body is not its answer.
    const coding = tokensOf(head, "content-encoding").filter((c) => c !== "identity");
    if (coding.length > 0) throw protocolError(`its body is encoded (${coding.join(", ")})`);
    const codings = tokensOf(head, "transfer-encoding");
    if (codings.length > 0) {
      if (codings.length !== 1 || codings[0] !== "chunked") {
        throw protocolError(`its Transfer-Encoding is not chunked (${codings.join(", ")})`);
      }
      return { kind: "chunked" };
    }
    const length = contentLength(head);
    return length === undefined ? { kind: "close" } : { kind: "length", remaining: length };
  }

  private readBody(data: Buffer): Buffer {
    if (this.framing.kind !== "length") {
      this.parts.push(data);
      return Buffer.alloc(0);
    }
    const take = Math.min(this.framing.remaining, data.length);
    this.parts.push(data.subarray(0, take));
    this.framing.remaining -= take;
    if (this.framing.remaining === 0) this.phase = "done";
    return data.subarray(take);
  }

  private readChunkSize(data: Buffer): Buffer | undefined {
    const end = data.indexOf(CRLF);
    if (end < 0) return this.wait(data, MAX_LINE_BYTES, "a chunk-size line");
    const line = data.toString("latin1", 0, end);
    const match = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
    if (match === null) throw protocolError("a chunk size is malformed");
    this.chunkRemaining = Number.parseInt(match[1] as string, 16);
    this.phase = this.chunkRemaining === 0 ? "trailers" : "chunk-data";
    return data.subarray(end + CRLF.length);
  }

  private readChunkData(data: Buffer): Buffer {
    const take = Math.min(this.chunkRemaining, data.length);
    this.parts.push(data.subarray(0, take));
    this.chunkRemaining -= take;
    if (this.chunkRemaining === 0) this.phase = "chunk-end";
    return data.subarray(take);
  }

  private readChunkEnd(data: Buffer): Buffer | undefined {
    if (data.length < CRLF.length) return this.wait(data, CRLF.length, "a chunk's end");
    if (data[0] !== 0x0d || data[1] !== 0x0a) throw protocolError("a chunk does not end with CRLF");
    this.phase = "chunk-size";
    return data.subarray(CRLF.length);
  }

  private readTrailers(data: Buffer): Buffer | undefined {
    // Trailer fields (ignored) up to an empty line.
    let at = 0;
    for (;;) {
      const end = data.indexOf(CRLF, at);
      if (end < 0) return this.wait(data, MAX_LINE_BYTES, "the trailer section");
      if (end === at) {
        this.phase = "done";
        return data.subarray(end + CRLF.length);
      }
      at = end + CRLF.length;
      if (at > MAX_LINE_BYTES)
        throw protocolError(`the trailer section is longer than ${MAX_LINE_BYTES} bytes`);
    }
  }

  private result(): Http1Response {
    const head = this.head as Head;
    const connection = tokensOf(head, "connection");
    const reusable =
      head.minor === 1 &&
      !connection.includes("close") &&
      this.framing.kind !== "close" &&
      // Both lengths given: the answer was read by its chunks, but the server is suspect.
      !(head.headers.has("transfer-encoding") && head.headers.has("content-length"));
    return {
      status: head.status,
      body: this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts),
      reusable,
      keepAliveMs: keepAliveMs(head),
    };
  }
}
