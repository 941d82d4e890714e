/**
 * Validated operations (operations.ts) applied to the facts a job showed the model
 * (served.ts `factsBefore`), giving the state the job stores (model-state.ts). Pure.
 *
 * - add / update: the slot's value becomes the operation's; another current value of the
 *   slot is retired (a slot holds one value: a single-valued kind has one slot, a keyed kind
 *   one per key). The same value stated again keeps the provenance of its first statement.
 * - retire: the slot's current value (the one named, when a value is given) is retired.
 * - An operation from an earlier message than the slot's current value is skipped: a job that
 *   lands late never brings back an older value.
 *
 * New facts carry the message's id and position and the job's date (R8.3); their text is
 * written here from the kind and the value (build.ts), never taken from the model.
 */
import { type CandidateForm, factText } from "./build.ts";
import { boundRetired, type FactState, isoDate } from "./history.ts";
import { DEFAULT_MAX_FACTS, sameValue } from "./merge.ts";
import { type AppliedMessage, type ModelFactState, withApplied } from "./model-state.ts";
import type { FactOperation, JobMessage, RejectedOperation } from "./operations.ts";
import { clip, type Fact, MAX_SOURCE_CHARS, MAX_TEXT_CHARS, type RetiredFact } from "./types.ts";

export interface AppliedOperations {
  readonly state: ModelFactState;
  /** Operations that changed nothing or could not apply, with the reason (by their order). */
  readonly skipped: readonly RejectedOperation[];
}

function formOf(op: FactOperation): { form?: CandidateForm; slot?: string } {
  const key = op.slot.key;
  if (key === "hometown") return { form: "hometown" };
  if (key === "location") return { form: "location" };
  if (key?.startsWith("favorite:"))
    return { form: "favorite", slot: key.slice("favorite:".length) };
  if (op.slot.category === "other" && key !== undefined) return { slot: key };
  return {};
}

function factOf(op: FactOperation, value: string, date: string): Fact {
  const text = factText({
    category: op.slot.category,
    value,
    lang: op.lang,
    key: op.slot.key,
    detail: value,
    ...formOf(op),
  });
  return {
    id: op.slot.id,
    category: op.slot.category,
    text: clip(text, MAX_TEXT_CHARS),
    value,
    lang: op.lang,
    source: clip(op.message.text.trim(), MAX_SOURCE_CHARS),
    messageId: op.message.id,
    position: op.message.position,
    since: date,
  };
}

/**
 * `operations` applied in order to `before` (what the model was shown); `applied`: the jobs'
 * applied messages so far; `messages`: this job's, recorded as applied; `date`: the job's.
 */
export function applyOperations(input: {
  readonly before: FactState;
  readonly applied: readonly AppliedMessage[];
  readonly operations: readonly FactOperation[];
  readonly messages: readonly JobMessage[];
  readonly date: Date | string;
  readonly max?: number | undefined;
}): AppliedOperations {
  const date = isoDate(input.date);
  let facts: Fact[] = [...input.before.facts];
  const retired: RetiredFact[] = [...input.before.retired];
  const skipped: RejectedOperation[] = [];
  const retire = (fact: Fact, op: FactOperation) => {
    facts = facts.filter((other) => other !== fact);
    retired.push({ ...fact, retiredAt: date, retiredBy: op.message.id });
  };
  input.operations.forEach((op, index) => {
    const current = facts.filter((fact) => fact.id === op.slot.id);
    const later = current.find((fact) => (fact.position ?? -1) > op.message.position);
    if (later !== undefined) {
      skipped.push({ index, reason: `slot ${op.slot.id} holds a value from a later message` });
      return;
    }
    if (op.op === "retire") {
      const named = current.filter(
        (fact) => op.value === undefined || sameValue(fact.value, op.value),
      );
      if (named.length === 0) {
        skipped.push({ index, reason: `nothing to retire in slot ${op.slot.id}` });
        return;
      }
      for (const fact of named) retire(fact, op);
      return;
    }
    const value = op.value as string;
    if (current.some((fact) => sameValue(fact.value, value))) {
      skipped.push({ index, reason: `slot ${op.slot.id} already holds ${value}` });
      return;
    }
    for (const fact of current) retire(fact, op);
    facts.push(factOf(op, value, date));
  });
  const max = input.max ?? DEFAULT_MAX_FACTS;
  const kept = facts.length > max ? facts.slice(facts.length - max) : facts;
  return {
    state: {
      facts: kept,
      retired: boundRetired(retired, kept),
      applied: withApplied(
        input.applied,
        input.messages.map((message) => ({ id: message.id, position: message.position })),
      ),
    },
    skipped,
  };
}
