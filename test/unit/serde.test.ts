/**
 * The savers' checkpoint serializer (src/store/serde.ts) against LangGraph's own
 * JsonPlusSerializer: for every value it writes the same bytes, and it reads back the same
 * objects (same classes, same fields) from what either of them wrote — so a thread written
 * by llamon reads the same in the official savers and the other way round.
 */
import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { DeltaSnapshot, JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CheckpointSerializer } from "../../src/store/serde.ts";

const ours = new CheckpointSerializer();
const theirs = new JsonPlusSerializer();

function messages(): BaseMessage[] {
  return [
    new SystemMessage("너는 친절한 비서야. Answer briefly."),
    new HumanMessage({ content: "서울 마포구에 살아요 🙂", id: "m-1", name: "민지" }),
    new HumanMessage({
      content: [
        { type: "text", text: "이 사진 봐" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ],
      id: "m-2",
    }),
    new AIMessage({
      content: "",
      id: "m-3",
      tool_calls: [{ id: "call-1", name: "weather", args: { city: "부산", days: 2 } }],
      invalid_tool_calls: [{ id: "call-2", name: "x", args: "{oops", error: "bad json" }],
      usage_metadata: { input_tokens: 10, output_tokens: 3, total_tokens: 13 },
      response_metadata: { model: "offline", finish: "tool_calls" },
      additional_kwargs: { extra: { nested: [1, "two", null] } },
    }),
    new ToolMessage({
      content: '{"temp": 21}',
      tool_call_id: "call-1",
      id: "m-4",
      status: "success",
      artifact: { raw: [1, 2, 3] },
    }),
    new AIMessage({ content: "내일 부산은 21도예요.", id: "m-5" }),
    new ChatMessage({ content: "custom role", role: "critic", id: "m-6" }),
    new RemoveMessage({ id: "m-1" }),
  ];
}

/** What each serializer writes, and what each reads back from both writings. */
async function roundTrips(value: unknown) {
  const [oursType, oursBytes] = await ours.dumpsTyped(value);
  const [theirType, theirBytes] = await theirs.dumpsTyped(value);
  return {
    oursType,
    theirType,
    oursText: new TextDecoder().decode(oursBytes),
    theirText: new TextDecoder().decode(theirBytes),
    readByUs: await ours.loadsTyped(theirType, theirBytes),
    readByThem: await theirs.loadsTyped(theirType, theirBytes),
    oursReadByThem: await theirs.loadsTyped(oursType, oursBytes),
  };
}

async function expectSame(value: unknown) {
  const r = await roundTrips(value);
  expect(r.oursType).toBe(r.theirType);
  expect(r.oursText).toBe(r.theirText);
  expect(r.readByUs).toStrictEqual(r.readByThem);
  expect(r.oursReadByThem).toStrictEqual(r.readByThem);
}

describe("CheckpointSerializer (LangGraph's format, less CPU)", () => {
  it("R4.1 a live tail of every kind of message: the same bytes as LangGraph's serializer, the same message objects back", async () => {
    const list = messages();
    await expectSame(list);
    const back = (await ours.loadsTyped(...(await ours.dumpsTyped(list)))) as BaseMessage[];
    expect(back.map((m) => m.constructor.name)).toEqual(list.map((m) => m.constructor.name));
    expect((back[3] as AIMessage).tool_calls?.[0]?.args).toEqual({ city: "부산", days: 2 });
    expect(back[1]?.content).toBe("서울 마포구에 살아요 🙂");
  });

  it("the values jsonplus writes as lc:2 records, alone and around messages", async () => {
    const list = messages();
    await expectSame({
      messages: list,
      snapshot: new DeltaSnapshot(list.slice(0, 3)),
      set: new Set(["a", 1]),
      map: new Map<unknown, unknown>([
        ["k", list[1]],
        [2, { deep: [undefined] }],
      ]),
      regexp: /서울|seoul/giu,
      error: new Error("boom"),
      bytes: new Uint8Array([0, 1, 255]),
      missing: undefined,
      inArray: [undefined, null, 0, "", false],
      send: { lg_name: "Send", node: "tools", args: { q: 1 }, timeout: 5 },
    });
    await expectSame(undefined);
    await expectSame(new Uint8Array([1, 2]));
    await expectSame("plain 문자열");
    await expectSame([1, [2, [3]], { a: { b: { c: null } } }]);
  });

  it("records jsonplus leaves alone stay plain objects, as it leaves them", async () => {
    await expectSame({ lc: 1, type: "constructor", id: "not-a-list", kwargs: {} });
    await expectSame({ lc: 2, type: "constructor", id: ["Map"], args: [[["k"]]] });
    await expectSame({ lc: 2, type: "constructor", id: ["RegExp"], args: ["(", "g"] });
    await expectSame({ lc: 2, type: "constructor", id: ["Process"], method: "exit", args: [] });
    await expectSame({ lc: 2, type: "delta_snapshot" });
    await expectSame({ lc: 3, type: "undefined" });
  });

  it("a LangChain object inside another, a cycle, a BigInt and a __proto__ key read and write as jsonplus does", async () => {
    const inner = new HumanMessage({ content: "안쪽", id: "in" });
    await expectSame(new AIMessage({ content: "밖", id: "out", additional_kwargs: { inner } }));
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    await expectSame(cyclic);
    await expectSame({ big: 10n });
    const text = '{"a":1,"__proto__":{"polluted":true},"b":[{"__proto__":{"x":1}}]}';
    expect(await ours.loadsTyped("json", text)).toStrictEqual(
      await theirs.loadsTyped("json", text),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("what LangChain's load refuses or limits reads as jsonplus reads it: its depth limit, a missing secret", async () => {
    // 47 levels inside additional_kwargs put the innermost value at load's depth limit (50):
    // allowed for the message alone, one level too deep inside an array of messages.
    let deep: Record<string, unknown> = { leaf: "바닥" };
    for (let i = 1; i < 47; i++) deep = { a: deep };
    await expectSame([
      new HumanMessage({ content: "위", id: "top" }),
      new AIMessage({ content: "깊은", id: "deep", additional_kwargs: { deep } }),
    ]);
    const secret = JSON.stringify({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "HumanMessage"],
      kwargs: { content: { lc: 1, type: "secret", id: ["LLAMON_TEST_NO_SUCH_SECRET"] } },
    });
    await expect(ours.loadsTyped("json", secret)).rejects.toThrow(/Missing secret/);
    await expect(theirs.loadsTyped("json", secret)).rejects.toThrow(/Missing secret/);
  });

  it("types other than json are jsonplus's", async () => {
    const bytes = new Uint8Array([9, 8, 7]);
    expect(await ours.loadsTyped("bytes", bytes)).toBe(bytes);
    await expect(ours.loadsTyped("pickle", bytes)).rejects.toThrow(/Unknown serialization type/);
  });

  it("R4.1 generated values: the same bytes written, the same objects read", async () => {
    const text = fc.string({ unit: "grapheme", maxLength: 12 });
    const message = fc
      .tuple(fc.constantFrom("human", "ai", "tool"), text, fc.uuid())
      .map(([kind, content, id]) =>
        kind === "human"
          ? new HumanMessage({ content, id })
          : kind === "ai"
            ? new AIMessage({ content, id })
            : new ToolMessage({ content, id, tool_call_id: id }),
      );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, undefined, true, false, 0, -1.5, Number.MAX_SAFE_INTEGER),
        text,
        message,
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 4 }),
        fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }).map((xs) => new Set(xs)),
        fc.uint8Array({ maxLength: 5 }),
        fc.array(message, { maxLength: 3 }).map((xs) => new DeltaSnapshot(xs)),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        await expectSame(v);
      }),
      { numRuns: 200 },
    );
  });
});
