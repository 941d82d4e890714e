import { describe, expect, it } from "vitest";
import { sseEvents } from "../../../src/llm/sse.ts";
import { pieces, streamOf } from "./sse-fixtures.ts";

async function events(text: string, size: number) {
  const out = [];
  for await (const e of sseEvents(streamOf(pieces(text, size)))) out.push(e);
  return out;
}

describe("server-sent events of a provider's stream", () => {
  it("R12.1 reads events cut anywhere (lines, CRLF, multi-byte characters), joins data lines, skips comments and empty events", async () => {
    const text =
      ": keep-alive\r\n\r\nevent: ping\r\ndata: {}\r\n\r\ndata: 안녕\ndata: two\n\n\n\nevent: only-name\n\ndata: last\rdata: line\r\r";
    for (const size of [1, 2, 3, 5, 64]) {
      expect(await events(text, size)).toEqual([
        { event: "ping", data: "{}" },
        { event: "", data: "안녕\ntwo" },
        { event: "", data: "last\nline" },
      ]);
    }
  });

  it("R12.1 an event the stream ends in the middle of is dropped, as the WHATWG rules say", async () => {
    expect(await events("data: a\n\ndata: b", 3)).toEqual([{ event: "", data: "a" }]);
  });

  it("stopping early cancels the body (the connection to the provider closes)", async () => {
    let canceled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\ndata: 2\n\n"));
      },
      cancel() {
        canceled = true;
      },
    });
    for await (const e of sseEvents(body)) {
      expect(e.data).toBe("1");
      break;
    }
    expect(canceled).toBe(true);
  });
});
