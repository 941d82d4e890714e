/**
 * The facts a turn serves in `llm` mode (R8.1): the state the jobs left (model-state.ts),
 * with what the heuristic took from the user messages no job has applied yet. So the
 * heuristic result serves at once, and is replaced when the job for its message lands:
 *
 * - the jobs' state is the base (each job stores the whole state it saw plus its operations);
 * - a fact the heuristic took from a message no job applied (its `messageId` is not in
 *   `applied`) is laid over it — unless the jobs' value of that slot came from a later
 *   message;
 * - a value the heuristic retired on such a message is retired over it too;
 * - the heuristic's facts of applied messages, and facts without a message id (kept from
 *   before provenance), are already in the base as the job saw them, and are not laid again.
 *
 * With no job state yet (none has landed, or every one failed) the heuristic facts are served
 * as they are. Pure: no clock, no I/O.
 *
 * Known approximation: a retired value does not say where its retiring message sits, so a
 * heuristic retirement on a pending message also retires the jobs' value when the jobs took
 * that same value from a later message the heuristic did not read as a fact. It lasts until
 * the pending message's job lands (or, if that job fails, until the value is stated again).
 */
import type { FactState } from "./history.ts";
import { boundRetired } from "./history.ts";
import { DEFAULT_MAX_FACTS, sameValue } from "./merge.ts";
import type { ModelFactState } from "./model-state.ts";
import type { Fact, RetiredFact } from "./types.ts";

const pending = (covered: ReadonlySet<string>, id: string | undefined): id is string =>
  id !== undefined && !covered.has(id);

/** The served facts: the jobs' state with the heuristic's facts of unapplied messages over it. */
export function servedFacts(
  heuristic: FactState,
  model: ModelFactState | undefined,
  options: { readonly max?: number | undefined } = {},
): FactState {
  if (model === undefined) return heuristic;
  const covered = new Set(model.applied.map((message) => message.id));
  let facts: Fact[] = [...model.facts];
  const retired: RetiredFact[] = [...model.retired];
  for (const fact of heuristic.facts) {
    if (!pending(covered, fact.messageId)) continue;
    const same = facts.filter((base) => base.id === fact.id);
    // The jobs' value of the slot came from a later message than the heuristic's: it stands.
    if (same.some((base) => (base.position ?? -1) > (fact.position ?? -1))) continue;
    for (const base of same) {
      if (sameValue(base.value, fact.value)) continue;
      retired.push({
        ...base,
        retiredAt: fact.since ?? base.since ?? "1970-01-01",
        ...(fact.messageId ? { retiredBy: fact.messageId } : {}),
      });
    }
    facts = [...facts.filter((base) => base.id !== fact.id), fact];
  }
  for (const gone of heuristic.retired) {
    if (!pending(covered, gone.retiredBy)) continue;
    const match = facts.find((base) => base.id === gone.id && sameValue(base.value, gone.value));
    if (match === undefined) continue;
    facts = facts.filter((base) => base !== match);
    retired.push({ ...match, retiredAt: gone.retiredAt, retiredBy: gone.retiredBy });
  }
  const max = options.max ?? DEFAULT_MAX_FACTS;
  const kept = facts.length > max ? facts.slice(facts.length - max) : facts;
  return { facts: kept, retired: boundRetired(retired, kept) };
}

/**
 * The facts as they stood before the messages `ids`, for a job about those messages: the
 * heuristic's facts of those messages are taken out and what it retired on them is put back,
 * then {@link servedFacts}. The model is shown this, and its operations apply to it.
 */
export function factsBefore(
  heuristic: FactState,
  model: ModelFactState | undefined,
  ids: ReadonlySet<string>,
): FactState {
  const restored: Fact[] = heuristic.retired
    .filter((gone) => gone.retiredBy !== undefined && ids.has(gone.retiredBy))
    .map(({ retiredAt: _at, retiredBy: _by, ...fact }) => fact);
  const before: FactState = {
    facts: [
      ...heuristic.facts.filter((fact) => fact.messageId === undefined || !ids.has(fact.messageId)),
      ...restored.filter(
        (fact) =>
          !heuristic.facts.some((now) => now.id === fact.id && !ids.has(now.messageId ?? "")),
      ),
    ],
    retired: heuristic.retired.filter(
      (gone) => gone.retiredBy === undefined || !ids.has(gone.retiredBy),
    ),
  };
  const without =
    model === undefined
      ? undefined
      : {
          ...model,
          facts: model.facts.filter(
            (fact) => fact.messageId === undefined || !ids.has(fact.messageId),
          ),
        };
  return servedFacts(before, without);
}
