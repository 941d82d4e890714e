/**
 * The new value of a slot the same message ended (R8.3): "Moved over from Target to Costco",
 * "left Deloitte, I'm at KPMG now", "쿠팡 일 그만두고 마켓컬리로 옮겼어요", "대구 생활
 * 정리하고 제주도로 내려왔어요". Once a cue has retired the workplace or the home
 * (retraction-cues.ts), a name after the words that say where to is that slot's new value.
 *
 * The retirement is the context that makes so loose a reading safe: without it nothing here
 * is read, and a slot the extraction rows already gave a new value is left to them. The value
 * must still fit its slot (fit.ts) and may not be the value just retired.
 */
import { type Candidate, toFact } from "./build.ts";
import { fitsSlot } from "./fit.ts";
import type { Fact, FactCategory } from "./types.ts";
import { valueKey } from "./types.ts";

interface ReplacementRow {
  readonly lang: "ko" | "en";
  readonly slot: Extract<FactCategory, "workplace" | "residence">;
  /** Global; the group `value` is the new value. English rows see the message as written. */
  readonly pattern: RegExp;
}

const NAME_EN = String.raw`(?<value>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})`;
const WORD_KO = "(?<value>[가-힣A-Za-z0-9&]{2,20}?)";

const ROWS: readonly ReplacementRow[] = [
  // "from Target to Costco" ("quit Google and moved to Seattle" names a city, not a
  // workplace); "at KPMG now", "for Stripe", "joined Fernwood".
  {
    lang: "en",
    slot: "workplace",
    pattern: new RegExp(
      String.raw`\bfrom\s+[\w&.'-]+(?:\s+[\w&.'-]+){0,3}?\s+to\s+${NAME_EN}`,
      "g",
    ),
  },
  {
    lang: "en",
    slot: "workplace",
    pattern: new RegExp(String.raw`\b(?:at|for|joined)\s+${NAME_EN}`, "g"),
  },
  // "from Boston to Austin", "settled in Austin", "moved to Leeds".
  {
    lang: "en",
    slot: "residence",
    pattern: new RegExp(String.raw`\b(?:to|in)\s+${NAME_EN}`, "g"),
  },
  {
    lang: "ko",
    slot: "workplace",
    pattern: new RegExp(
      String.raw`${WORD_KO}(?:으로|로)\s*(?:\S+\s+)?(?:이직|옮겼|옮겨|옮김|갈아탔|들어갔|입사)`,
      "g",
    ),
  },
  {
    lang: "ko",
    slot: "workplace",
    pattern: new RegExp(String.raw`${WORD_KO}(?:에서)\s*(?:\S+\s+)?일(?:해|하)`, "g"),
  },
  {
    lang: "ko",
    slot: "residence",
    pattern: new RegExp(
      String.raw`${WORD_KO}(?:으로|로)\s*(?:\S+\s+)?(?:이사|내려왔|올라왔|내려갔|올라갔|옮겼|왔어|갔어|왔습|갔습)`,
      "g",
    ),
  },
];

/** Words that follow "to/at/in" with a capital and name no place of work or home. */
const NOT_A_NAME_EN =
  /^(?:I|I'm|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter|Thanksgiving|Zoom|Slack|Google Meet)\b/;
/** A "where to" that names nothing ("여기로 왔어요"). */
const NOT_A_NAME_KO = /^(?:여기|거기|저기|이곳|그곳|저곳|어디|집|회사|직장|다른\S*|새|딴)$/;

/**
 * The facts that replace the ended slots, read from the message that ended them. `ended`
 * are the facts a cue retired; `kept` the facts the message's own rows gave (a slot there is
 * not read again).
 */
export function replacementsOf(
  utterance: string,
  ended: readonly Fact[],
  kept: readonly Fact[],
): Fact[] {
  const out: Fact[] = [];
  for (const old of ended) {
    if (old.id !== old.category || kept.some((fact) => fact.category === old.category)) continue;
    for (const row of ROWS) {
      if (row.slot !== old.category) continue;
      const found = readRow(row, utterance, old);
      if (found !== undefined) {
        out.push(found);
        break;
      }
    }
  }
  return out;
}

function readRow(row: ReplacementRow, utterance: string, old: Fact): Fact | undefined {
  if (row.lang === "ko" ? !/[가-힣]/.test(utterance) : !/[A-Za-z]/.test(utterance)) {
    return undefined;
  }
  const oldKey = valueKey(old.value);
  for (const match of utterance.slice(0, 2000).matchAll(row.pattern)) {
    const value = (match.groups?.value ?? "").trim();
    if (value === "") continue;
    if (row.lang === "en" ? NOT_A_NAME_EN.test(value) : NOT_A_NAME_KO.test(value)) continue;
    const key = valueKey(value);
    if (key === "" || key === oldKey || oldKey.includes(key) || key.includes(oldKey)) continue;
    const candidate: Candidate = { category: row.slot, value, lang: row.lang };
    const fact = toFact(candidate, utterance, old.turn);
    if (fitsSlot(fact, utterance)) return fact;
  }
  return undefined;
}
