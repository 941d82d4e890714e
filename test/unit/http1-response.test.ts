/**
 * The HTTP/1.1 response reader of the Node transport (src/store/http1-response.ts): every
 * framing the database's answer can come in, split anywhere, gives back exactly the bytes
 * sent; anything it cannot frame exactly is a clear error (the client then drops the
 * connection, so no answer is ever cut short or run into the next one).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Http1ProtocolError,
  type Http1Response,
  Http1ResponseReader,
  MAX_HEAD_BYTES,
} from "../../src/store/http1-response.ts";

const KOREAN = '{"text":"서울 마포구에 살아요 🙂 — 고마워요"}';

/** Feeds `pieces` in order; returns the response or what was thrown. */
function read(pieces: readonly (string | Buffer)[], end = false): Http1Response | undefined {
  const reader = new Http1ResponseReader();
  let answer: Http1Response | undefined;
  for (const piece of pieces) {
    if (answer !== undefined) throw new Error("the reader answered before the last piece");
    answer = reader.push(typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
  }
  if (end && answer === undefined) return reader.end();
  return answer;
}

function errorOf(pieces: readonly (string | Buffer)[], end = false): Error {
  try {
    read(pieces, end);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the reader to refuse the answer");
}

function lengthAnswer(body: string, extra = ""): string {
  return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function chunkedAnswer(body: Buffer, sizes: readonly number[], trailer = ""): Buffer {
  const parts: Buffer[] = [Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")];
  let at = 0;
  for (const size of sizes) {
    if (at >= body.length) break;
    const piece = body.subarray(at, at + size);
    at += piece.length;
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"));
  }
  if (at < body.length) {
    const rest = body.subarray(at);
    parts.push(Buffer.from(`${rest.length.toString(16)}\r\n`), rest, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`0\r\n${trailer}\r\n`));
  return Buffer.concat(parts);
}

/** Every way of cutting `bytes` in two, and one byte at a time. */
function splits(bytes: Buffer): Buffer[][] {
  const out: Buffer[][] = [];
  for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  out.push([...bytes].map((b) => Buffer.from([b])));
  return out;
}

describe("Http1ResponseReader", () => {
  it("reads a Content-Length answer whole, cut in two anywhere, or byte by byte", () => {
    const bytes = Buffer.from(lengthAnswer(KOREAN));
    for (const pieces of [[bytes], ...splits(bytes)]) {
      const answer = read(pieces);
      expect(answer?.status).toBe(200);
      expect(answer?.body.toString("utf8")).toBe(KOREAN);
      expect(answer?.reusable).toBe(true);
      expect(answer?.keepAliveMs).toBeUndefined();
    }
  });

  it("reads a chunked answer (a character split between chunks, extensions, trailers) cut anywhere", () => {
    const body = Buffer.from(KOREAN, "utf8");
    const bytes = chunkedAnswer(body, [5, 1, 7, 3], "X-Trailer: yes\r\n");
    const withExtension = Buffer.from(
      bytes.toString("latin1").replace("\r\n5\r\n", '\r\n5;name="v"\r\n'),
      "latin1",
    );
    for (const pieces of [[bytes], [withExtension], ...splits(bytes)]) {
      const answer = read(pieces);
      expect(answer?.body.toString("utf8")).toBe(KOREAN);
      expect(answer?.reusable).toBe(true);
    }
  });

  it("any body, any chunk sizes, any cuts: the bytes come back exactly", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 30 }),
        (raw, chunked, sizes, cuts) => {
          const body = Buffer.from(raw);
          const bytes = chunked
            ? chunkedAnswer(body, sizes)
            : Buffer.concat([
                Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`),
                body,
              ]);
          const pieces: Buffer[] = [];
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const size = cuts[i % cuts.length] as number;
            pieces.push(bytes.subarray(at, at + size));
            at += size;
          }
          const answer = read(pieces);
          expect(answer?.body.equals(body)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("skips interim answers (100 Continue, 103) and reads the final one", () => {
    const answer = read([
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n",
      lengthAnswer("{}"),
    ]);
    expect(answer?.status).toBe(200);
    expect(answer?.body.toString()).toBe("{}");
  });

  it("answers without a body: 204, 304 and Content-Length 0", () => {
    expect(read(["HTTP/1.1 204 No Content\r\n\r\n"])?.body.length).toBe(0);
    expect(read(["HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"])?.status).toBe(304);
    const empty = read(["HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"]);
    expect(empty?.status).toBe(400);
    expect(empty?.body.length).toBe(0);
  });

  it("a body without a length ends with the connection; the connection is not reused", () => {
    const reader = new Http1ResponseReader();
    expect(reader.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n{"a":'))).toBeUndefined();
    expect(reader.push(Buffer.from("1}"))).toBeUndefined();
    const answer = reader.end();
    expect(answer.body.toString()).toBe('{"a":1}');
    expect(answer.reusable).toBe(false);
  });

  it("says when the connection may carry the next request, and for how long the server keeps it", () => {
    expect(read([lengthAnswer("{}", "Connection: close\r\n")])?.reusable).toBe(false);
    expect(read([lengthAnswer("{}", "Connection: Keep-Alive, Close\r\n")])?.reusable).toBe(false);
    expect(read(["HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"])?.reusable).toBe(false);
    const hinted = read([lengthAnswer("{}", "Keep-Alive: max=100, timeout=5\r\n")]);
    expect(hinted?.reusable).toBe(true);
    expect(hinted?.keepAliveMs).toBe(5000);
    // Both lengths: read by its chunks, but the connection is not trusted again.
    const both = chunkedAnswer(Buffer.from("{}"), [1]);
    const suspicious = Buffer.from(
      both.toString("latin1").replace("\r\n\r\n", "\r\nContent-Length: 2\r\n\r\n"),
      "latin1",
    );
    const answer = read([suspicious]);
    expect(answer?.body.toString()).toBe("{}");
    expect(answer?.reusable).toBe(false);
  });

  it("refuses what it cannot frame exactly, with a message that says what", () => {
    const cases: [string[], RegExp][] = [
      [["HTTP/2 200\r\n\r\n"], /status line/],
      [["HTTP/1.1 2000 OK\r\n\r\n"], /status line/],
      [["HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"], /header line/],
      [["HTTP/1.1 200 OK\r\nA: 1\r\n  folded\r\n\r\n"], /folded/],
      [["HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n"], /Content-Length/],
      [["HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"], /Content-Length/],
      [["HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\n{}"], /Content-Length/],
      [["HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"], /Transfer-Encoding/],
      [["HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}"], /encoded/],
      [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"], /chunk size/],
      [["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX"], /CRLF/],
      [["HTTP/1.1 101 Switching Protocols\r\n\r\n"], /switched protocols/],
      [[`${lengthAnswer("{}")}HTTP/1.1 200 OK\r\n`], /after the end/],
      [[`HTTP/1.1 200 OK\r\nX: ${"a".repeat(MAX_HEAD_BYTES)}`], /head is longer/],
      [[`HTTP/1.1 200 OK\r\nX: ${"a".repeat(MAX_HEAD_BYTES)}\r\n\r\n`], /head is longer/],
    ];
    for (const [pieces, message] of cases) {
      const error = errorOf(pieces);
      expect(error, pieces.join("").slice(0, 60)).toBeInstanceOf(Http1ProtocolError);
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/not valid HTTP\/1\.1/);
    }
  });

  it("bytes after a complete answer, in a later piece, are refused too", () => {
    const reader = new Http1ResponseReader();
    expect(reader.push(Buffer.from(lengthAnswer("{}")))?.status).toBe(200);
    expect(() => reader.push(Buffer.from("x"))).toThrow(/after the end/);
  });

  it("an answer cut off by the connection closing is an error, never a short body", () => {
    for (const pieces of [
      [],
      ["HTTP/1.1 200 OK\r\nContent-"],
      [lengthAnswer(KOREAN).slice(0, -3)],
      [chunkedAnswer(Buffer.from(KOREAN), [4]).subarray(0, 60)],
    ]) {
      const error = errorOf(pieces, true);
      expect(error.message).toMatch(/closed before the database's whole answer arrived/);
    }
  });
});
