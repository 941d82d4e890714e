/**
 * The lines of the facts block sent to the model (R8.2, R8.3): each recalled fact's text,
 * then, in brackets, when it was said and the value it replaced —
 * `The user lives in Busan (since 2026-03-02; earlier: Seoul)`,
 * `사용자는 부산에 산다 (2026-03-02부터; 이전: 서울)`.
 *
 * One line per slot: should two current facts share an id (a row written by hand), only the
 * newer is shown, so the model never sees two current values for one single-valued slot.
 * A retired value is never shown as current, only as "earlier". Each fact is one plain line.
 * Facts stored without a date (before dates were kept) show none.
 */
import type { Fact, RetiredFact } from "./types.ts";

const WORDS = {
  en: { since: (date: string) => `since ${date}`, earlier: "earlier: " },
  ko: { since: (date: string) => `${date}부터`, earlier: "이전: " },
} as const;

/** The block lines of the recalled facts; `retired` gives their "earlier" values. */
export function factLines(recalled: readonly Fact[], retired: readonly RetiredFact[]): string[] {
  const newestById = new Map<string, Fact>();
  for (const fact of recalled) {
    const other = newestById.get(fact.id);
    if (other === undefined || newer(fact, other)) newestById.set(fact.id, fact);
  }
  const lines: string[] = [];
  for (const fact of recalled) {
    if (newestById.get(fact.id) !== fact) continue;
    const words = WORDS[fact.lang];
    const notes: string[] = [];
    if (fact.since !== undefined) notes.push(words.since(fact.since));
    const earlier = latestEarlier(fact, retired);
    if (earlier !== undefined) notes.push(`${words.earlier}${plainLine(earlier)}`);
    const text = plainLine(fact.text);
    lines.push(notes.length === 0 ? text : `${text} (${notes.join("; ")})`);
  }
  return lines;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const NOT_PLAIN = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * A stored text as one plain line: line breaks, other control characters and runs of spaces
 * become one space, so no fact can start a line, a bullet or a header of its own in the block
 * (extraction refuses such text; a row written by hand or stored before that is covered here).
 */
function plainLine(text: string): string {
  return text.replace(NOT_PLAIN, " ").trim();
}

function newer(a: Fact, b: Fact): boolean {
  const [da, db] = [a.since ?? "", b.since ?? ""];
  return da !== db ? da > db : (a.position ?? -1) > (b.position ?? -1);
}

/** The value the fact's slot held before it (the newest retired one that differs). */
function latestEarlier(fact: Fact, retired: readonly RetiredFact[]): string | undefined {
  for (let i = retired.length - 1; i >= 0; i--) {
    const old = retired[i] as RetiredFact;
    if (old.id === fact.id && old.value !== fact.value) return old.value;
  }
  return undefined;
}
