/** A dialogue of user messages for the facts tests: the heuristic's state after each one. */
import {
  EMPTY_FACT_STATE,
  type FactState,
  reviseFacts,
  updateFacts,
} from "../../../../src/memory/facts/index.ts";

const UNCAPPED = Number.MAX_SAFE_INTEGER;

/** One message a day from 2026-03-01, at positions 0, 2, 4, …, turn i for message i. */
export function talk(
  utterances: readonly string[],
  start: FactState = EMPTY_FACT_STATE,
): FactState {
  return utterances.reduce<FactState>((state, text, i) => {
    const date = new Date(Date.UTC(2026, 2, 1 + i)).toISOString();
    return reviseFacts(state, text, { messageId: `m${i}`, position: i * 2, date }, (current) =>
      updateFacts(current, text, { max: UNCAPPED, turn: i }),
    );
  }, start);
}
