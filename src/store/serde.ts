/**
 * LangGraph's checkpoint serializer (`JsonPlusSerializer`: JSON with LangChain's `lc` records),
 * the same format, with less CPU per turn — what the official savers write and read stays
 * exactly what this writes and reads.
 *
 * Why: `JsonPlusSerializer` revives a stored value with an async walk that awaits every key of
 * every object and calls LangChain's `load` once per message (stringifying the message again
 * first), and writes with a replacer that runs for every value after a separate pass that
 * looks for cycles. On a turn's live tail (about 20 messages read and written) that was a
 * large part of the memory layer's CPU (docs/performance.md, "The serializer").
 *
 * - Write: `JSON.stringify` with jsonplus's replacer, called for objects and `undefined` only
 *   (it returns every other value unchanged). Byte for byte what jsonplus writes for any value
 *   without a cycle; a value `JSON.stringify` refuses (a cycle, a BigInt) goes to jsonplus
 *   itself, so its `[Circular]` and fallback behaviour are kept too.
 * - Read: `JSON.parse`, then the same bottom-up walk as jsonplus (same records, same order of
 *   checks, same copies), synchronous; the LangChain objects it finds (`lc: 1`) are revived by
 *   LangChain's own `load`, all of one value in a single call. A value with a LangChain object
 *   nested in another (jsonplus revives the inner one first), or one that the single `load`
 *   call refuses, is read by jsonplus itself.
 *
 * The tests hold it to jsonplus: the same bytes written and the same objects read, for
 * messages of every kind and for generated values (test/unit/serde.test.ts).
 */
import { load } from "@langchain/core/load";
import {
  DeltaSnapshot,
  JsonPlusSerializer,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Record_ = Record<string, unknown>;

/** jsonplus's `_default`: how a value that JSON cannot hold is written (lc: 2 records). */
function encodeSpecial(value: unknown): unknown {
  if (value === undefined) return { lc: 2, type: "undefined" };
  if (value instanceof DeltaSnapshot) return { lc: 2, type: "delta_snapshot", value: value.value };
  if (value instanceof Set || value instanceof Map) {
    return constructorRecord(value.constructor.name, undefined, [Array.from(value)]);
  }
  if (value instanceof RegExp)
    return constructorRecord("RegExp", undefined, [value.source, value.flags]);
  if (value instanceof Error) return constructorRecord("Error", undefined, [value.message]);
  if ((value as { lg_name?: unknown } | null)?.lg_name === "Send") {
    const send = value as { node: unknown; args: unknown; timeout?: unknown };
    return {
      node: send.node,
      args: send.args,
      ...(send.timeout !== undefined ? { timeout: send.timeout } : {}),
    };
  }
  if (value instanceof Uint8Array)
    return constructorRecord("Uint8Array", "from", [Array.from(value)]);
  return value;
}

function constructorRecord(name: string, method: string | undefined, args: unknown[]) {
  return { lc: 2, type: "constructor", id: [name], method: method ?? null, args, kwargs: {} };
}

function replacer(_key: string, value: unknown): unknown {
  return value === undefined || (typeof value === "object" && value !== null)
    ? encodeSpecial(value)
    : value;
}

/** A value the fast walk leaves to jsonplus. */
class NotHandled extends Error {}

const isLangChainObject = (v: Record_) =>
  v.lc === 1 && v.type === "constructor" && Array.isArray(v.id);

function reviveConstructor(record: Record_): unknown {
  const id = record.id;
  const name = Array.isArray(id) && id.length === 1 ? id[0] : undefined;
  const noMethod = record.method === undefined || record.method === null;
  const args = record.args;
  const singleArray = Array.isArray(args) && args.length === 1 && Array.isArray(args[0]);
  if (name === "Set" && noMethod) return singleArray ? new Set(args[0] as unknown[]) : undefined;
  if (name === "Map" && noMethod) {
    if (!singleArray) return undefined;
    const entries = args[0] as unknown[];
    if (!entries.every((e) => Array.isArray(e) && e.length === 2)) return undefined;
    return new Map(entries as [unknown, unknown][]);
  }
  if (name === "RegExp" && noMethod) {
    if (!Array.isArray(args) || args.length !== 2) return undefined;
    if (typeof args[0] !== "string" || typeof args[1] !== "string") return undefined;
    try {
      return new RegExp(args[0], args[1]);
    } catch {
      return undefined;
    }
  }
  if (name === "Error" && noMethod) {
    if (!Array.isArray(args) || args.length !== 1 || typeof args[0] !== "string") return undefined;
    return new Error(args[0]);
  }
  if (name === "Uint8Array" && (noMethod || record.method === "from")) {
    if (!singleArray) return undefined;
    const bytes = args[0] as unknown[];
    const isByte = (b: unknown) =>
      typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255;
    return bytes.every(isByte) ? new Uint8Array(bytes as number[]) : undefined;
  }
  return undefined;
}

/**
 * jsonplus's `_reviver`, synchronous: children first, into a fresh object, then the records,
 * in the same order. A LangChain object (`lc: 1`) takes the next of `loaded` (the objects
 * `collect` found, in the same order, revived by `load`); without `loaded` (inside a
 * LangChain object) meeting one is NotHandled.
 */
function revive(
  value: Json,
  loaded: { readonly list: unknown[]; next: number } | undefined,
): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => revive(item, loaded));
  if (isLangChainObject(value)) {
    if (loaded === undefined) throw new NotHandled();
    return loaded.list[loaded.next++];
  }
  const revived: Record_ = {};
  for (const [k, v] of Object.entries(value)) revived[k] = revive(v, loaded);
  if (revived.lc === 2 && revived.type === "undefined") return undefined;
  if (revived.lc === 2 && revived.type === "delta_snapshot" && Object.hasOwn(revived, "value")) {
    return new DeltaSnapshot(revived.value);
  }
  if (revived.lc === 2 && revived.type === "constructor") {
    return reviveConstructor(revived) ?? revived;
  }
  return revived;
}

/**
 * The LangChain objects of a value, in the order `revive` meets them, each with its children
 * revived as jsonplus revives them before calling `load` on it. (An object's `lc`, `type` and
 * `id` are the same before and after its children are revived, so which objects are
 * LangChain's is known from the parsed JSON.)
 */
function collect(value: Json, found: unknown[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
    return;
  }
  if (!isLangChainObject(value)) {
    for (const v of Object.values(value)) collect(v, found);
    return;
  }
  const revived: Record_ = {};
  for (const [k, v] of Object.entries(value)) revived[k] = revive(v, undefined);
  found.push(revived);
}

export class CheckpointSerializer implements SerializerProtocol {
  private readonly jsonplus = new JsonPlusSerializer();

  async dumpsTyped(obj: unknown): Promise<[string, Uint8Array]> {
    if (obj instanceof Uint8Array) return ["bytes", obj];
    let text: string | undefined;
    try {
      text = JSON.stringify(obj, replacer);
    } catch {
      // A cycle or a BigInt: jsonplus's own handling, whatever it writes.
      return this.jsonplus.dumpsTyped(obj);
    }
    // JSON.stringify gives undefined only for a function or symbol at the top; jsonplus too.
    if (text === undefined) return this.jsonplus.dumpsTyped(obj);
    return ["json", new TextEncoder().encode(text)];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type !== "json") return this.jsonplus.loadsTyped(type, data);
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    const parsed = JSON.parse(text) as Json;
    const found: unknown[] = [];
    try {
      collect(parsed, found);
    } catch (error) {
      if (error instanceof NotHandled) return this.jsonplus.loadsTyped(type, text);
      throw error;
    }
    if (found.length === 0) return revive(parsed, { list: [], next: 0 });
    // One `load` for all of them: an array of the objects, revived in order. The array is one
    // level more for load's depth limit, and its errors name other paths: whatever load
    // refuses here, jsonplus loads (or refuses) one object at a time, as it always did.
    let list: unknown[];
    try {
      list = (await load(JSON.stringify(found))) as unknown[];
    } catch {
      return this.jsonplus.loadsTyped(type, text);
    }
    return revive(parsed, { list, next: 0 });
  }
}
