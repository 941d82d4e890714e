/**
 * Test helpers for the window: message builders, a fast-check generator of stored threads
 * that knows its own group structure (an oracle independent of groups.ts), and a checker
 * of what providers accept around tool calls.
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import fc from "fast-check";

export const human = (text: string): HumanMessage => new HumanMessage(text);
export const ai = (text: string): AIMessage => new AIMessage(text);
export const system = (text: string): SystemMessage => new SystemMessage(text);
export const calls = (ids: readonly string[], text = ""): AIMessage =>
  new AIMessage({
    content: text,
    tool_calls: ids.map((id) => ({ id, name: "lookup", args: { query: id }, type: "tool_call" })),
  });
export const result = (id: string, text = `result of ${id}`): ToolMessage =>
  new ToolMessage({ content: text, tool_call_id: id });

export type SegmentKind =
  | "user"
  | "ai"
  | "tool_group"
  | "system"
  | "orphan_tool"
  | "unanswered_tool_calls";

/** A piece of a generated thread; well-formed segments are exactly the expected groups. */
export interface Segment {
  kind: SegmentKind;
  /** The messages of the segment, system messages included (in thread order). */
  messages: BaseMessage[];
}

export interface History {
  messages: BaseMessage[];
  segments: Segment[];
}

const WELL_FORMED = new Set<SegmentKind>(["user", "ai", "tool_group"]);

/** The groups a correct grouping must find, in order, without system messages. */
export function expectedGroups(history: History): BaseMessage[][] {
  return history.segments
    .filter((segment) => WELL_FORMED.has(segment.kind))
    .map((segment) => segment.messages.filter((message) => message.getType() !== "system"));
}

const text = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("안녕하세요, 저는 앨리스예요.", "이전에 뭐 얘기했지?", "서울 날씨"),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 1500 }) },
);

type SegmentSpec =
  | { kind: "user" | "ai" | "system" | "orphan_tool"; text: string }
  | { kind: "tool_group"; order: number[]; systemAt: number | undefined; text: string }
  | { kind: "unanswered_tool_calls"; calls: number; answered: number; text: string };

const toolGroupSpec = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc.record({
    kind: fc.constant("tool_group" as const),
    order: fc.shuffledSubarray(
      Array.from({ length: n }, (_, i) => i),
      { minLength: n, maxLength: n },
    ),
    systemAt: fc.option(fc.integer({ min: 0, max: n - 1 }), { nil: undefined }),
    text,
  }),
);

const unansweredSpec = fc.integer({ min: 1, max: 3 }).chain((n) =>
  fc.record({
    kind: fc.constant("unanswered_tool_calls" as const),
    calls: fc.constant(n),
    answered: fc.integer({ min: 0, max: n - 1 }),
    text,
  }),
);

const segmentSpec: fc.Arbitrary<SegmentSpec> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("user" as const), text }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("ai" as const), text }) },
  { weight: 4, arbitrary: toolGroupSpec },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("system" as const), text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("orphan_tool" as const), text }) },
  { weight: 1, arbitrary: unansweredSpec },
);

function buildSegment(spec: SegmentSpec, index: number): Segment {
  const id = (j: number) => `call_${index}_${j}`;
  switch (spec.kind) {
    case "user":
      return { kind: "user", messages: [human(spec.text)] };
    case "ai":
      return { kind: "ai", messages: [ai(spec.text)] };
    case "system":
      return { kind: "system", messages: [system(spec.text)] };
    case "orphan_tool":
      return { kind: "orphan_tool", messages: [result(`orphan_${index}`, spec.text)] };
    case "tool_group": {
      const messages: BaseMessage[] = [
        calls(
          spec.order.map((_, j) => id(j)),
          spec.text,
        ),
      ];
      spec.order.forEach((j, position) => {
        if (position === spec.systemAt && position > 0) messages.push(system("mid-group note"));
        messages.push(result(id(j), spec.text));
      });
      return { kind: "tool_group", messages };
    }
    case "unanswered_tool_calls": {
      const ids = Array.from({ length: spec.calls }, (_, j) => id(j));
      const answers = ids.slice(0, spec.answered).map((callId) => result(callId));
      return { kind: "unanswered_tool_calls", messages: [calls(ids, spec.text), ...answers] };
    }
  }
}

/** Random stored threads: turns, tool groups (parallel, any order), malformed bits. */
export function historyArb(options: { malformed?: boolean; maxLength?: number } = {}) {
  const spec = options.malformed === false ? segmentSpec.filter(isWellFormedSpec) : segmentSpec;
  return fc
    .array(spec, { maxLength: options.maxLength ?? 40, size: "medium" })
    .map((specs): History => {
      const segments = specs.map(buildSegment);
      return { segments, messages: segments.flatMap((segment) => segment.messages) };
    });
}

function isWellFormedSpec(spec: SegmentSpec): boolean {
  return WELL_FORMED.has(spec.kind) || spec.kind === "system";
}

/**
 * Throws unless the messages are what a provider accepts around tools: every tool call is
 * answered by ToolMessages right after it (any order) and every ToolMessage answers a call
 * of the AIMessage just before it.
 */
export function assertToolPairing(messages: readonly BaseMessage[]): void {
  let pending = new Set<string>();
  messages.forEach((message, index) => {
    if (ToolMessage.isInstance(message)) {
      if (!pending.delete(message.tool_call_id)) {
        throw new Error(`orphan tool result ${message.tool_call_id} at ${index}`);
      }
      return;
    }
    if (pending.size > 0) throw new Error(`tool calls ${[...pending]} unanswered at ${index}`);
    if (AIMessage.isInstance(message)) {
      pending = new Set((message.tool_calls ?? []).map((call) => call.id ?? ""));
    }
  });
  if (pending.size > 0) throw new Error(`tool calls ${[...pending]} unanswered at the end`);
}

/** k such that `output` is exactly the groups[k..] concatenated (by reference), or -1. */
export function suffixStart(groups: readonly BaseMessage[][], output: readonly BaseMessage[]) {
  for (let k = groups.length; k >= 0; k--) {
    const flat = groups.slice(k).flat();
    if (flat.length === output.length && flat.every((message, i) => message === output[i])) {
      return k;
    }
    if (flat.length > output.length) return -1;
  }
  return -1;
}
