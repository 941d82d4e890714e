/**
 * Hostile bodies are client errors, answered before the turn (nothing stored):
 * invalid UTF-8 (-32700, never decoded with replacement characters), deep JSON (-32600,
 * no stack overflow in validation or the SDK), an oversized `metadata.history` (-32602).
 */
import { describe, expect, it } from "vitest";
import { InMemoryKv } from "../../../src/a2a/task-store.ts";
import { SEED_MAX_ITEMS, SEED_MAX_PARTS } from "../../../src/memory/seed.ts";
import { MAX_JSON_DEPTH } from "../../../src/runtime/json-body.ts";
import { BASE_URL, makeApp, type RpcReply, rpc } from "./helpers.ts";

const send = (message: Record<string, unknown>, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "message/send",
  params: {
    message: { role: "user", parts: [{ kind: "text", text: "hi" }], ...message },
    ...params,
  },
});

async function postBytes(app: ReturnType<typeof makeApp>["app"], body: Uint8Array) {
  const res = await app.fetch(
    new Request(`${BASE_URL}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );
  return { status: res.status, body: (await res.json()) as RpcReply };
}

function withBytes(json: string, marker: string, bytes: number[]): Uint8Array {
  const [before, after] = json.split(marker) as [string, string];
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(before), ...bytes, ...enc.encode(after)]);
}

describe("hostile A2A bodies", () => {
  it("invalid UTF-8 is a parse error (-32700); distinct bytes never meet as one contextId", async () => {
    const t = makeApp({ kv: new InMemoryKv() });
    const json = JSON.stringify(send({ contextId: "user-@@" }));
    for (const bytes of [[0xff], [0xfe], [0xc3, 0x28], [0xed, 0xa0, 0x80]]) {
      const reply = await postBytes(t.app, withBytes(json, "@@", bytes));
      expect(reply.status).toBe(200);
      expect(reply.body.error).toMatchObject({
        code: -32700,
        message: "the request body is not valid UTF-8",
      });
      expect(reply.body.id).toBeNull();
    }
    expect(t.turns.inputs).toEqual([]);
    expect((t.kv as InMemoryKv).entries.size).toBe(0);
    // Valid UTF-8 (and a leading BOM) still works.
    const ok = await postBytes(t.app, withBytes(json, "@@", [0xc3, 0xa9]));
    expect(ok.body.result).toBeDefined();
    expect(t.turns.inputs.map((i) => i.contextId)).toEqual(["user-é"]);
    const bom = await postBytes(
      t.app,
      withBytes(`##${json.replace("@@", "bom")}`, "##", [0xef, 0xbb, 0xbf]),
    );
    expect(bom.body.result).toBeDefined();
  });

  it("deep JSON anywhere in the body is -32600, and no turn runs", async () => {
    const t = makeApp({ kv: new InMemoryKv() });
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const bodies = [
      deep(100_000),
      `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`,
      JSON.stringify(send({ metadata: { x: "@@" } })).replace('"@@"', deep(100_000)),
      JSON.stringify(send({}, { metadata: { history: "@@" } })).replace('"@@"', deep(5_000)),
      JSON.stringify(send({ parts: [{ kind: "data", data: { x: "@@" } }] })).replace(
        '"@@"',
        deep(MAX_JSON_DEPTH),
      ),
    ];
    for (const body of bodies) {
      const reply = await rpc(t.app, body);
      expect(reply.status, body.slice(0, 60)).toBe(200);
      expect(reply.body.error, body.slice(0, 60)).toEqual({
        code: -32600,
        message: `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
    expect(t.turns.inputs).toEqual([]);
    expect((t.kv as InMemoryKv).entries.size).toBe(0);
  });

  it("nesting within the limit reaches the turn (the SDK handles it)", async () => {
    const t = makeApp({ kv: new InMemoryKv() });
    const nested = JSON.parse(`${"[".repeat(MAX_JSON_DEPTH - 6)}${"]".repeat(MAX_JSON_DEPTH - 6)}`);
    const reply = await rpc(t.app, send({ metadata: { nested } }));
    expect(reply.body.error).toBeUndefined();
    expect(t.turns.inputs).toHaveLength(1);
  });

  it("an oversized metadata.history is -32602 before the turn; the cap itself passes", async () => {
    const t = makeApp({ kv: new InMemoryKv() });
    const items = (n: number) => Array.from({ length: n }, () => ({ role: "system", text: "x" }));
    const tooMany = await rpc(t.app, send({}, { metadata: { history: items(10_000) } }));
    expect(tooMany.body.error).toMatchObject({
      code: -32602,
      message: `params.metadata.history has 10000 items; at most ${SEED_MAX_ITEMS} are accepted (send the newest)`,
    });
    const parts = Array.from({ length: SEED_MAX_PARTS + 1 }, () => ({ kind: "text", text: "x" }));
    const tooManyParts = await rpc(
      t.app,
      send({}, { metadata: { history: [{ role: "user", parts }] } }),
    );
    expect(tooManyParts.body.error).toMatchObject({ code: -32602 });
    expect(tooManyParts.body.error?.message).toContain("parts in all; at most");
    expect(t.turns.inputs).toEqual([]);
    expect((t.kv as InMemoryKv).entries.size).toBe(0);
    const atCap = await rpc(t.app, send({}, { metadata: { history: items(SEED_MAX_ITEMS) } }));
    expect(atCap.body.result).toBeDefined();
    expect(t.turns.inputs).toHaveLength(1);
  });
});
