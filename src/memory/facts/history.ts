/**
 * Facts with time and provenance (R8.3), on top of the extraction and merge rules:
 *
 * - every fact a user message adds carries that message's id, its position in the thread
 *   and the date (`since`); a fact stated again keeps the provenance of its first statement;
 * - a fact the update removed (a newer value of its slot, a correction, a retraction or a
 *   retraction cue, retraction-cues.ts) is kept as retired, with the date and the message
 *   that retired it — never as current;
 * - the retired list is bounded ({@link MAX_RETIRED_PER_SLOT} per slot, {@link MAX_RETIRED}
 *   in all, the newest kept), so the stored row does not grow with the conversation.
 *   Facts dropped only because the current list is full (merge.ts `max`) are not retired.
 */
import { LlamonError } from "../../errors.ts";
import { DEFAULT_MAX_FACTS, sameValue } from "./merge.ts";
import { replacementsOf } from "./replacement.ts";
import { cueRetiredIds } from "./retraction-cues.ts";
import type { Fact, RetiredFact } from "./types.ts";
import { MAX_ID_CHARS, valueKey } from "./types.ts";

/** At most this many retired values are kept per slot (fact id), the newest. */
export const MAX_RETIRED_PER_SLOT = 2;
/** At most this many retired facts are kept in all, the newest. */
export const MAX_RETIRED = 20;

/** A thread's facts: the current ones (oldest first) and the retired ones (oldest first). */
export interface FactState {
  readonly facts: readonly Fact[];
  readonly retired: readonly RetiredFact[];
}

export const EMPTY_FACT_STATE: FactState = { facts: [], retired: [] };

/** Where a user message sits: its A2A messageId, its position in the thread, the date. */
export interface Provenance {
  readonly messageId?: string | undefined;
  readonly position?: number | undefined;
  /** ISO date `YYYY-MM-DD` (a longer ISO timestamp is cut to its date). */
  readonly date: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/** The ISO date (`YYYY-MM-DD`) of a date or an ISO timestamp. */
export function isoDate(value: Date | string): string {
  const text = typeof value === "string" ? value : value.toISOString();
  const match = ISO_DATE.exec(text);
  if (match === null) {
    throw new LlamonError("INPUT_INVALID", `expected an ISO date (YYYY-MM-DD), got ${text}`);
  }
  return match[0];
}

const sameFact = (a: Fact, b: Fact): boolean =>
  a.id === b.id && valueKey(a.value) === valueKey(b.value);

/** A messageId worth storing: non-empty and short (storage.ts reads no longer ones). */
function messageIdOf(provenance: Provenance): string | undefined {
  const id = provenance.messageId;
  return id !== undefined && id !== "" && id.length <= MAX_ID_CHARS ? id : undefined;
}

function stamped(fact: Fact, provenance: Provenance, date: string): Fact {
  const out: Fact = { ...fact, since: date };
  const messageId = messageIdOf(provenance);
  if (messageId !== undefined) out.messageId = messageId;
  const position = provenance.position;
  if (position !== undefined && Number.isInteger(position) && position >= 0) {
    out.position = position;
  }
  return out;
}

/**
 * One user message applied to a thread's facts. `derive` is the extraction and merge step
 * (merge.ts `updateFacts`, or the `llm` mode's merge); it gets the current facts less those
 * a retraction cue of the utterance retired, and must not cap the list (pass it a large
 * `max`): the cap is applied here, after the retired ones are known.
 */
export function reviseFacts(
  state: FactState,
  utterance: string,
  provenance: Provenance,
  derive: (current: readonly Fact[]) => readonly Fact[],
  options?: { max?: number | undefined },
): FactState {
  const date = isoDate(provenance.date);
  const max = options?.max ?? DEFAULT_MAX_FACTS;
  const cued = cueRetiredIds(utterance, state.facts, sameValue);
  const remaining = state.facts.filter((fact) => !cued.has(fact.id));
  const extracted = derive(remaining);
  // The workplace or home the message ended, and where it went ("… to Costco").
  const ended = state.facts.filter((fact) => cued.has(fact.id));
  const before = new Set(state.facts);
  const said = extracted.filter((fact) => !before.has(fact));
  const derived = [...extracted, ...replacementsOf(utterance, ended, said)];
  const next = derived.map((fact) => {
    if (before.has(fact)) return fact;
    const earlier = state.facts.find((old) => sameFact(old, fact));
    if (earlier !== undefined) {
      // Stated again: it has been true since it was first said.
      const { messageId, position, since } = earlier;
      return { ...fact, messageId, position, since } as Fact;
    }
    return stamped(fact, provenance, date);
  });
  const gone = state.facts.filter((old) => !next.some((fact) => sameFact(old, fact)));
  const retiredNow = gone.map((fact) => retire(fact, provenance, date));
  const facts = max >= next.length ? next : next.slice(next.length - max);
  return {
    facts: facts.map(withoutUndefined),
    retired: boundRetired([...state.retired, ...retiredNow], facts),
  };
}

function retire(fact: Fact, provenance: Provenance, date: string): RetiredFact {
  const out: RetiredFact = { ...fact, retiredAt: date };
  const messageId = messageIdOf(provenance);
  if (messageId !== undefined) out.retiredBy = messageId;
  return out;
}

function withoutUndefined<T extends object>(value: T): T {
  const out = { ...value };
  for (const key of Object.keys(out) as (keyof T)[]) {
    if (out[key] === undefined) delete out[key];
  }
  return out;
}

/**
 * The retired list kept: none that is current again (the user moved back), one entry per
 * slot and value (the latest), at most {@link MAX_RETIRED_PER_SLOT} per slot and
 * {@link MAX_RETIRED} in all, the newest; oldest first.
 */
export function boundRetired(
  retired: readonly RetiredFact[],
  current: readonly Fact[],
): RetiredFact[] {
  const kept: RetiredFact[] = [];
  const perSlot = new Map<string, number>();
  for (let i = retired.length - 1; i >= 0 && kept.length < MAX_RETIRED; i--) {
    const fact = retired[i] as RetiredFact;
    if (current.some((now) => sameFact(now, fact))) continue;
    if (kept.some((newer) => sameFact(newer, fact))) continue;
    const count = perSlot.get(fact.id) ?? 0;
    if (count >= MAX_RETIRED_PER_SLOT) continue;
    perSlot.set(fact.id, count + 1);
    kept.push(withoutUndefined(fact));
  }
  return kept.reverse();
}
