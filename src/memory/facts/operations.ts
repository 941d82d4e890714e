/**
 * The operations a model answers in `llm` mode (R8.1, R8.3), validated one by one: the answer
 * is external input, so every operation is checked with zod and against its slot
 * (operation-slot.ts) before anything is applied, and each refused one comes back with a
 * reason. Refused, per operation:
 *
 * - a field other than op, kind, key, value, message_id, lang (an operation never names a
 *   thread, a conversation, an agent or a user: the job decides which thread it writes);
 * - an unknown kind, or a key the kind has no slot for;
 * - a message id that is not one of the job's messages (it may be left out when the job has
 *   only one);
 * - a value that is missing (add, update), over-long, more than one line, markup, a link, a
 *   question, or reads as an instruction ("ignore previous instructions", "system prompt",
 *   "you are now …", role prefixes, the same in Korean);
 * - anything past the first {@link MAX_OPERATIONS}.
 *
 * A value that passes is the only thing of the answer that reaches a prompt, and only as the
 * value of a fact whose text llamon writes (build.ts `factText`).
 */

import { z } from "zod";
import { tidyValue } from "./build.ts";
import { hostileValue } from "./hostile.ts";
import { type FactSlot, slotForOperation, valueMisfit } from "./operation-slot.ts";
import { type FactLang, MAX_ID_CHARS } from "./types.ts";

/** At most this many operations are taken from one answer; the rest are refused. */
export const MAX_OPERATIONS = 20;
/** Raw values longer than this are refused before they are read further. */
const MAX_RAW_VALUE_CHARS = 1000;

export type OperationName = "add" | "update" | "retire";

/** A user message a job asks about: its id, its position in the thread and its text. */
export interface JobMessage {
  readonly id: string;
  readonly position: number;
  readonly text: string;
}

/** An operation that passed validation. */
export interface FactOperation {
  readonly op: OperationName;
  readonly slot: FactSlot;
  /** The new value (add, update), or the value to retire (retire; undefined: the slot's). */
  readonly value: string | undefined;
  readonly lang: FactLang;
  /** The message that states it. */
  readonly message: JobMessage;
}

export interface RejectedOperation {
  /** Index of the operation in the answer. */
  readonly index: number;
  readonly reason: string;
}

export interface OperationsVerdict {
  readonly accepted: readonly FactOperation[];
  readonly rejected: readonly RejectedOperation[];
}

const ALLOWED_FIELDS = new Set(["op", "kind", "key", "value", "message_id", "lang"]);
const THREAD_FIELDS = /thread|context|conversation|agent|user|principal|session|tenant/i;

const operationSchema = z.object({
  op: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(["add", "update", "retire"]),
  ),
  kind: z.string().min(1).max(40),
  key: z.string().max(80).nullish(),
  value: z.string().max(MAX_RAW_VALUE_CHARS).nullish(),
  message_id: z.string().min(1).max(MAX_ID_CHARS).optional(),
  lang: z.enum(["ko", "en"]).nullish(),
});

function fieldProblem(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return "an operation is a JSON object";
  }
  for (const field of Object.keys(entry)) {
    if (ALLOWED_FIELDS.has(field)) continue;
    return THREAD_FIELDS.test(field)
      ? `names a thread or party ("${field.slice(0, 40)}"); an operation applies to the job's thread only`
      : `unexpected field "${field.slice(0, 40)}"`;
  }
  return undefined;
}

function langOfText(text: string): FactLang {
  return /[\u3131-\u318e\uac00-\ud7a3]/.test(text) ? "ko" : "en";
}

type Checked =
  | { readonly ok: true; readonly op: FactOperation }
  | { readonly ok: false; readonly reason: string };

function checkOne(entry: unknown, messages: ReadonlyMap<string, JobMessage>): Checked {
  const problem = fieldProblem(entry);
  if (problem !== undefined) return { ok: false, reason: problem };
  const parsed = operationSchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "operation";
    return { ok: false, reason: `${where}: ${issue?.message ?? "invalid"}` };
  }
  const { op, kind, key } = parsed.data;
  // A job about one message: an operation that names none is about that one.
  const only = messages.size === 1 ? [...messages.keys()][0] : undefined;
  const messageId = parsed.data.message_id ?? only;
  if (messageId === undefined) {
    return { ok: false, reason: "message_id is required when a job has several messages" };
  }
  const message = messages.get(messageId);
  if (message === undefined) {
    return {
      ok: false,
      reason: `message_id "${messageId.slice(0, 40)}" is not one of this job's messages`,
    };
  }
  const raw = parsed.data.value ?? undefined;
  for (const text of [raw, key ?? undefined]) {
    const hostile = text === undefined ? undefined : hostileValue(text);
    if (hostile !== undefined) return { ok: false, reason: hostile };
  }
  const value = raw === undefined ? undefined : tidyValue(raw);
  if (op !== "retire" && (value === undefined || value === "")) {
    return { ok: false, reason: `${op} needs a value` };
  }
  const found = slotForOperation(kind, key ?? undefined, value);
  if (!found.ok) return { ok: false, reason: found.reason };
  if (value !== undefined && value !== "") {
    const misfit = valueMisfit(found.slot, value);
    if (misfit !== undefined) return { ok: false, reason: misfit };
  }
  const lang = parsed.data.lang ?? langOfText(`${value ?? ""} ${message.text}`);
  return {
    ok: true,
    op: { op, slot: found.slot, value: value === "" ? undefined : value, lang, message },
  };
}

/**
 * The operations of a decoded answer (`{ "operations": [ … ] }` or a bare list), each
 * accepted or refused with a reason. `messages`: the job's messages (an operation names one).
 */
export function validateOperations(
  entries: readonly unknown[],
  messages: readonly JobMessage[],
): OperationsVerdict {
  const byId = new Map(messages.map((message) => [message.id, message]));
  const accepted: FactOperation[] = [];
  const rejected: RejectedOperation[] = [];
  entries.forEach((entry, index) => {
    if (index >= MAX_OPERATIONS) {
      rejected.push({ index, reason: `too many operations (at most ${MAX_OPERATIONS} per job)` });
      return;
    }
    const checked = checkOne(entry, byId);
    if (checked.ok) accepted.push(checked.op);
    else rejected.push({ index, reason: checked.reason });
  });
  return { accepted, rejected };
}
