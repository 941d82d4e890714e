/**
 * Merging stored facts with new ones (R8.2).
 *
 * - One fact per id; a later fact with the same id supersedes the earlier one ("이제
 *   부산에 살아" replaces "서울에 살아": both are id `residence`).
 * - Liking and disliking the same thing exclude each other: `dislike:coffee` removes
 *   `preference:coffee` and the other way round, and so does a dislike of a wider or
 *   narrower wording of it (`dislike:horror` removes `preference:horror movies`: the
 *   values are {@link sameValue}).
 * - The list is kept in recency order (oldest first): a superseding or repeated fact moves
 *   to the end. At most `max` facts are kept (default {@link DEFAULT_MAX_FACTS}); the oldest
 *   are dropped.
 * - Idempotent: mergeFacts(mergeFacts(a, b), b) equals mergeFacts(a, b).
 */
import { LlamonError } from "../../errors.ts";
import type { Retraction } from "./build.ts";
import { correctionsOf, shiftedPreference } from "./corrections.ts";
import { analyseUtterance } from "./extract.ts";
import { reviseMembers } from "./members.ts";
import type { Fact } from "./types.ts";
import { valueKey } from "./types.ts";

export const DEFAULT_MAX_FACTS = 50;

export interface MergeOptions {
  /** At most this many facts are kept, the newest (default 50). */
  max?: number | undefined;
}

function maxOf(options: MergeOptions | undefined): number {
  const max = options?.max ?? DEFAULT_MAX_FACTS;
  if (!Number.isInteger(max) || max < 0) {
    throw new LlamonError("INPUT_INVALID", `max must be a whole number >= 0, got ${String(max)}`);
  }
  return max;
}

const OPPOSITE: Readonly<Record<string, string>> = { preference: "dislike", dislike: "preference" };

function opposite(fact: Fact): string | undefined {
  const other = OPPOSITE[fact.category];
  if (other === undefined || fact.id.includes(":favorite:")) return undefined;
  return `${other}:${fact.id.slice(fact.category.length + 1)}`;
}

/** Dedupes and supersedes (see the file header); inputs are not modified. */
export function mergeFacts(
  existing: readonly Fact[],
  incoming: readonly Fact[],
  options?: MergeOptions,
): Fact[] {
  const max = maxOf(options);
  const byId = new Map<string, Fact>();
  const put = (fact: Fact): void => {
    const conflicting = opposite(fact);
    if (conflicting !== undefined) {
      byId.delete(conflicting);
      const category = OPPOSITE[fact.category];
      for (const [id, other] of byId) {
        if (
          other.category === category &&
          !id.includes(":favorite:") &&
          sameValue(other.value, fact.value)
        ) {
          byId.delete(id);
        }
      }
    }
    byId.delete(fact.id);
    byId.set(fact.id, fact);
  };
  for (const fact of existing) put(fact);
  for (const fact of incoming) put(fact);
  const all = [...byId.values()];
  return max >= all.length ? all : all.slice(all.length - max);
}

/** Same thing, loosely: equal keys, or one contains the other ("부산" / "부산광역시"). */
export function sameValue(a: string, b: string): boolean {
  const ka = valueKey(a);
  const kb = valueKey(b);
  if (ka === "" || kb === "") return false;
  if (ka === kb) return true;
  const [short, long] = ka.length <= kb.length ? [ka, kb] : [kb, ka];
  return short.length >= 2 && long.includes(short);
}

function retracts(retraction: Retraction, fact: Fact): boolean {
  if (fact.category !== retraction.category) return false;
  if (retraction.id !== undefined && fact.id !== retraction.id) return false;
  return retraction.value === undefined || sameValue(fact.value, retraction.value);
}

/** The facts without those an utterance took back. */
export function applyRetractions(
  facts: readonly Fact[],
  retractions: readonly Retraction[],
): Fact[] {
  if (retractions.length === 0) return [...facts];
  return facts.filter((fact) => !retractions.some((retraction) => retracts(retraction, fact)));
}

export interface UpdateOptions extends MergeOptions {
  turn?: number | undefined;
}

/**
 * One user utterance applied to the stored facts: its retractions first, then what it
 * corrects by naming the old value ("부산이 아니라 대구에 살아요", corrections.ts), then its
 * facts merged in. What the turn runner calls in `heuristic` mode.
 */
export function updateFacts(
  existing: readonly Fact[],
  utterance: string,
  options?: UpdateOptions,
): Fact[] {
  const last = existing.at(-1);
  const afterMember =
    last?.category === "family" && options?.turn !== undefined && last.turn === options.turn - 1;
  // "bakery owner": the bakery is the user's, so "the bakery … it's called X" is their workplace.
  const ownBusinesses = existing
    .filter((f) => f.category === "job" && f.value.endsWith(" owner"))
    .map((f) => f.value.slice(0, -" owner".length).toLowerCase());
  // "family:dog:보리": the members' names, so "보리는 산책을 좋아해요" is the dog's taste.
  const memberNames = existing
    .filter((f) => f.category === "family")
    .map((f) => f.id.split(":")[2])
    .filter((name): name is string => name !== undefined && name.length >= 2);
  const { facts, retractions } = analyseUtterance(utterance, {
    turn: options?.turn,
    afterMember,
    ownBusinesses,
    memberNames,
  });
  const corrected = correctionsOf(existing, utterance, sameValue, options?.turn);
  // The corrected-away value is not stated again by this utterance.
  const stated = facts.filter(
    (fact) =>
      !corrected.remove.some(
        (old) => old.category === fact.category && sameValue(old.value, fact.value),
      ),
  );
  // A changed preference replaces the one stated just before (corrections.ts).
  const shifted = stated.some((f) => f.category === "preference")
    ? shiftedPreference(existing, utterance)
    : undefined;
  if (shifted !== undefined && !stated.some((f) => sameValue(f.value, shifted.value))) {
    corrected.remove.push(shifted);
  }
  const kept = applyRetractions(existing, retractions).filter((f) => !corrected.remove.includes(f));
  // Members of the family are slots of their own: a new age, a name (members.ts).
  const members = reviseMembers(
    kept,
    [...corrected.add, ...stated],
    utterance,
    afterMember && last !== undefined && kept.includes(last) ? last : undefined,
  );
  const left = kept.filter((f) => !members.remove.includes(f));
  return mergeFacts(left, members.add, options);
}
