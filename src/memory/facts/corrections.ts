/**
 * Corrections that name what they correct: "부산이 아니라 대구에 살아요", "맥주 말고
 * 와인이 더 좋아", "I meant Cambridge, not Boston", "not Boston but Cambridge". The stored
 * fact whose value is the corrected one (Y) is replaced by the same fact with the new
 * value (X), whatever its category, so no rule per category is needed. A correction that
 * names no earlier fact changes nothing.
 *
 * A name correction ("아 오타예요. 김하은이에요", "Sorry, typo, it's John.") names only the
 * new value: it applies when the utterance says it corrects (오타, 잘못, 정정, sorry, typo,
 * I meant …), a name is stored, and a clause is just a name.
 */
import { stripCopula, stripParticle } from "./korean.ts";
import { pattern } from "./regex.ts";
import {
  cleanText,
  clip,
  type Fact,
  factId,
  josa,
  MAX_SOURCE_CHARS,
  SINGLE_VALUED,
} from "./types.ts";

const KO_NOT =
  /(?<![^\s])([가-힣A-Za-z0-9]+?)(?:이|가)?\s+아니(?:라|고)\s*,?\s+([가-힣A-Za-z0-9]+)/;
const KO_INSTEAD = /(?<![^\s])([가-힣A-Za-z0-9]+)\s+말고\s+([가-힣A-Za-z0-9]+)/;
const EN_NOT = pattern(
  String.raw`\b([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)?),?\s+not\s+([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*(?=[,.!?]|$)`,
  "",
  "not",
);
const EN_NOT_BUT = pattern(
  String.raw`\bnot\s+([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)?),?\s+but\s+([A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*)?)`,
  "i",
  "not&but",
);

const MARKER = pattern(
  String.raw`잘못|오타|정정|아니다|아니야|아니요|\bsorry\b|\btypo\b|\bi meant\b|\bcorrection\b|\boops\b|\bactually\b`,
  "i",
  "actually|correction|i meant|oops|sorry|typo|아니다|아니야|아니요|오타|잘못|정정",
);
/** A bare name ends the utterance, after its start, a punctuation mark or a sentence-final 다 ("잘못 말했다 김도훈이야"). */
const KO_BARE_NAME = pattern(
  String.raw`(?:^|[,.!]\s*|(?<=[가-힣]다)\s+)([가-힣]{2,4}?)(?:이에요|예요|입니다|이야|야|이요)[.!~]*$`,
  "",
  "야|예요|이에요|이요|입니다",
);
const EN_BARE_NAME = pattern(
  String.raw`(?:^|[,.!]\s*)(?:it's|it is|i'm|i am|its)\s+([A-Z][a-z]+)[.!]*$`,
  "",
  "i am|i'm|it is|it's|its",
);

/**
 * "Actually, scratch that, it's tacos.", "아 정정할게요. 파스타예요": a correction that says it
 * corrects (not just "actually") and ends in a bare value takes the place of the most recent
 * fact's value, whatever its category.
 */
const STRONG_MARKER = pattern(
  String.raw`\bscratch\s+that\b|\bi\s+meant\b|\bcorrection\b|잘못\s*말|정정|말\s*바꿀게|아니\s*아니`,
  "i",
  "correction|meant|scratch|바꿀게|아니|잘못|정정",
);
const EN_BARE_VALUE = pattern(
  String.raw`^(?:it's|it is|its|make\s+that)\s+([A-Za-z][\w'-]*(?:\s+[\w'-]+){0,2}?)[.!]*$`,
  "i",
  "is|it's|its|make",
);
const KO_BARE_VALUE = pattern(
  "^([가-힣A-Za-z0-9]{1,10}?)(?:이에요|예요|이요|입니다)[.!~]*$",
  "",
  "예요|이요|이에요|입니다",
);
/** Where the last clause starts: after punctuation, or after a sentence-final 다 / 요 run on without one. */
const LAST_CLAUSE = pattern(String.raw`[,.!?]\s+|(?<=[가-힣](?:다|요))\s+(?=[가-힣])`, "g");

/** The bare value of the utterance's last clause ("it's tacos" → tacos), or undefined. */
function bareValue(text: string): string | undefined {
  const last = (LAST_CLAUSE.split(text.trim()).at(-1) ?? "").trim();
  const value = (EN_BARE_VALUE.exec(last) ?? KO_BARE_VALUE.exec(last))?.[1];
  return value === undefined || NOT_A_NAME.test(value) ? undefined : value;
}

const PROPER_CATEGORIES: ReadonlySet<string> = new Set(["residence", "workplace", "plan"]);
const LATIN_START = pattern("^[A-Za-z]");
const UPPER_START = pattern("^[A-Z]");
const TO_CLAUSE = pattern(String.raw`\bto\b`, "i", "to");

const NOT_A_NAME = pattern(
  "^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|fine|okay|true|right|wrong|me|him|her|you|that|this|오늘|내일|어제|괜찮|맞|진짜|정말|제가|저|나)",
  "i",
  "april|august|december|february|fine|friday|her|him|january|july|june|march|may|me|monday|november|october|okay|right|saturday|september|sunday|that|this|thursday|true|tuesday|wednesday|wrong|you|괜찮|나|내일|맞|어제|오늘|저|정말|제가|진짜",
);

/** Korean particles that follow a value in a fact's text, by (with final consonant, without). */
const PAIRS: readonly (readonly [string, string])[] = [
  ["으로", "로"],
  ["을", "를"],
  ["이", "가"],
  ["은", "는"],
  ["과", "와"],
  ["이다", "다"],
];

/** "대구에" → "대구", "와인이요" → "와인"; Latin words stay. */
const stem = (word: string): string => stripParticle(stripCopula(word));

const RETEXT_RE1 = pattern("[()]", "", "(|)");

/** The fact's text with `from` replaced by `to`, the following Korean particle agreeing. */
function retext(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) return text;
  const rest = text.slice(at + from.length);
  for (const [c, v] of PAIRS) {
    for (const particle of [c, v]) {
      if (rest.startsWith(particle)) {
        const fixed = josa(to, c, v);
        return `${text.slice(0, at)}${RETEXT_RE1.test(fixed) ? `${to}${particle}` : fixed}${rest.slice(particle.length)}`;
      }
    }
  }
  return `${text.slice(0, at)}${to}${rest}`;
}

function replaced(fact: Fact, value: string, source: string, turn: number | undefined): Fact {
  const valueKeyed =
    !SINGLE_VALUED.has(fact.category) && fact.id === factId(fact.category, fact.value);
  const next: Fact = {
    ...fact,
    id: valueKeyed ? factId(fact.category, value) : fact.id,
    value,
    text: retext(fact.text, fact.value, value),
    source: clip(cleanText(source), MAX_SOURCE_CHARS),
  };
  if (turn !== undefined) next.turn = turn;
  else delete next.turn;
  return next;
}

const PAIRS_OF_RE1 = pattern(String.raw`^(?:meant|mean)\s+`, "i", "mean");

function pairsOf(utterance: string): [corrected: string, value: string][] {
  const out: [string, string][] = [];
  for (const re of [KO_NOT, KO_INSTEAD]) {
    const m = re.exec(utterance);
    if (m !== null) out.push([stem(m[1] ?? ""), stem(m[2] ?? "")]);
  }
  const not = EN_NOT.exec(utterance);
  if (not !== null) out.push([not[2] ?? "", PAIRS_OF_RE1.replace(not[1] ?? "", "")]);
  const but = EN_NOT_BUT.exec(utterance);
  if (but !== null) out.push([but[1] ?? "", but[2] ?? ""]);
  return out.filter(([y, x]) => y !== "" && x !== "" && y.toLowerCase() !== x.toLowerCase());
}

const CORRECTIONS_OF_RE1 = pattern("[’‘]", "g", "‘|’");

const SHIFT_WHEN = pattern(
  String.raw`요즘은|요즘엔|요즘에는|이제는|이젠|\blately\b|\bthese days\b|\bnowadays\b|\bnow\b|\banymore\b`,
  "i",
  "anymore|lately|nowadays|now|these days|요즘에는|요즘엔|요즘은|이젠|이제는",
);
const SHIFT_HOW = pattern(
  String.raw`[가-힣A-Za-z0-9]만\s|[가-힣A-Za-z0-9]만$|\s더\s|대신|바꿨|[가-힣]보다\s|\bmore\b|\brather\b|\binstead\b|\bswitched\b|\bprefer\b|\bmostly\b|\bmainly\b`,
  "i",
  "instead|mainly|more|mostly|prefer|rather|switched|더|대신|만|바꿨|보다",
);

/**
 * "아메리카노 좋아해요" → "근데 요즘은 라떼만 마셔요", "I really like tea." → "lately I'm more of a
 * coffee person": a preference that says it has changed (when: 요즘은, lately, now…; how: …만,
 * 더, …보다, more, rather, instead, prefer…) replaces the preference stated just before it (the most recent
 * fact). An unrelated earlier preference, with other facts after it, stays.
 */
export function shiftedPreference(existing: readonly Fact[], utterance: string): Fact | undefined {
  const last = existing.at(-1);
  if (last?.category !== "preference" || typeof utterance !== "string") return undefined;
  const text = utterance.slice(0, 2000);
  return SHIFT_WHEN.test(text) && SHIFT_HOW.test(text) ? last : undefined;
}

/**
 * The facts an utterance corrects (see the file header): `remove` the stored ones, `add`
 * their corrected copies. `sameValue` is passed in to keep merge.ts the owner of matching.
 */
export function correctionsOf(
  existing: readonly Fact[],
  utterance: string,
  sameValue: (a: string, b: string) => boolean,
  turn?: number,
): { remove: Fact[]; add: Fact[] } {
  const remove: Fact[] = [];
  const add: Fact[] = [];
  if (typeof utterance !== "string" || existing.length === 0) return { remove, add };
  const text = CORRECTIONS_OF_RE1.replace(utterance.normalize("NFC"), "'").slice(0, 2000);
  for (const [corrected, value] of pairsOf(text)) {
    const fact = [...existing].reverse().find((f) => sameValue(f.value, corrected));
    if (fact === undefined) continue;
    remove.push(fact);
    add.push(replaced(fact, value, text, turn));
  }
  const name = [...existing].reverse().find((f) => f.category === "name");
  if (name !== undefined && add.length === 0 && MARKER.test(text)) {
    const bare = KO_BARE_NAME.exec(text.trim()) ?? EN_BARE_NAME.exec(text.trim());
    const value = bare?.[1];
    if (value !== undefined && !NOT_A_NAME.test(value) && !sameValue(value, name.value)) {
      remove.push(name);
      add.push(replaced(name, value, text, turn));
    }
  }
  const last = existing.at(-1);
  if (
    add.length === 0 &&
    last !== undefined &&
    last.category !== "name" &&
    STRONG_MARKER.test(text)
  ) {
    const value = bareValue(text);
    // A place or a plan is a proper name in English ("it's Denver", not "it's hard to say").
    const proper =
      value === undefined ||
      !PROPER_CATEGORIES.has(last.category) ||
      !LATIN_START.test(value) ||
      UPPER_START.test(value);
    if (value !== undefined && proper && !TO_CLAUSE.test(value) && !sameValue(value, last.value)) {
      remove.push(last);
      add.push(replaced(last, value, text, turn));
    }
  }
  return { remove, add };
}
