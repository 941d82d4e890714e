/**
 * Languages the user speaks or is learning: "I speak Portuguese and a little
 * German", "I'm learning Japanese", "영어랑 일본어 할 줄 알아요", "요즘 스페인어 배우는 중이야".
 *
 * The names come from languages-table.ts (ICU's display names in English and Korean), so
 * a fact's id is the language code whatever language it was said in: `other:language:ja`
 * for both "Japanese" and "일본어", and a Korean question finds an English fact. Each
 * language is its own fact (slot `language`), with form `learning` when the clause says so.
 * Using one counts ("영어는 업무 때문에 매일 써요": with its particle when words come between).
 * A gerund a few words after the speaker counts too ("I grew up speaking Portuguese", "I
 * started learning Korean"): the verb of the clause is then another one.
 * A language the clause calls the user's own ("a native Spanish speaker", "Spanish is my
 * first language", "grew up speaking Greek", "모국어는 스페인어", "영어 원어민") has form
 * `native`, so "what's my first language?" finds it before the ones picked up later.
 */

import { splitWords } from "../letters.ts";
import type { Candidate } from "./build.ts";
import { stripCopula, stripParticle, tokensOf } from "./korean.ts";
import { LANGUAGE_CODES, LANGUAGE_NAMES } from "./languages-table.ts";
import { pattern } from "./regex.ts";

const BY_NAME = new Map<string, string>();
for (const code of LANGUAGE_CODES) {
  const [en, ko] = LANGUAGE_NAMES[code];
  BY_NAME.set(en.toLowerCase(), code);
  BY_NAME.set(ko, code);
  // "중국말", "영어 회화": the spoken form of a Korean name (…어 → …말) names it too.
  if (ko.endsWith("어")) BY_NAME.set(`${ko.slice(0, -1)}말`, code);
}
// Other names in common use for a language the table names another way.
BY_NAME.set("mandarin", "zh");
BY_NAME.set("tagalog", "tl");
BY_NAME.set("타갈로그어", "tl");
BY_NAME.set("farsi", "fa");

const LANGUAGE_CODE_RE1 = pattern("[.,!?~]+$", "", "!|,|.|?|~");

/** The language code a word names ("Japanese", "일본어를", "중국말로", "영어예요"), or undefined. */
export function languageCode(word: string): string | undefined {
  const lower = LANGUAGE_CODE_RE1.replace(word.toLowerCase(), "");
  // "베트남어고", "영어예요": a name with a copula ending names it too.
  return BY_NAME.get(lower) ?? BY_NAME.get(stripParticle(lower)) ?? BY_NAME.get(stripCopula(lower));
}

/** Codes of every language a text names (for recall: "스페인어 공부 팁" names es). */
export function languagesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of splitWords(text, "", false)) {
    const code = word === "" ? undefined : languageCode(word);
    if (code !== undefined) out.add(code);
  }
  return out;
}

const EN_SPEAK = pattern(
  String.raw`\b(?:i|we)\s+(?:also\s+|can\s+|do\s+|still\s+|mostly\s+|only\s+)*(?:speak|am fluent in|am learning|have been learning|have been studying|have been taking|am studying|am taking|study|learn|know|am (?:a\s+)?native\s+(?:in|speaker of)|picked up|get by in|am conversational in|am (?:pretty\s+|quite\s+|really\s+)?(?:decent|good|okay|ok|solid|great|not\s+bad)\s+(?:at|in))\b|\b(?:i'm|i am)\s+a\s+native\s+(?=[a-z]+\s+speaker\b)|\b(?:i|we|i've|i'm)\s+(?:(?!(?:not|never|stopped|quit|don't|didn't)\s)[a-z']+\s+){0,3}?(?:speaking|learning|studying|brush(?:ing)?\s+up\s+on|practi[cs](?:e|ing))\b|\bmy\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\b|\b(?:i am|i'm)\s+bilingual\b`,
  "i",
  "am |bilingual|brush|get by in|have been taking|know|language|learn|native|picked up|practic|practis|speak|study|tongue",
);
/** "I mostly use English now", "we use Spanish at home": a language in use (not "French press"). */
const EN_USE = pattern(
  String.raw`\b(?:i|we)\s+(?:mostly\s+|mainly\s+|also\s+|still\s+|only\s+)*use\s+([a-z]+)\s*(?:$|[,.!]|\s+(?:now|at\s+work|at\s+home|every\s*day|daily|with|for\s+work|mostly|most\s+of))`,
  "gi",
  "use",
);
/** "Arabic is what we speak at home": the language before the speaking verb. */
const EN_SPOKEN_FIRST = pattern(
  String.raw`\b([a-z]+)\s+is\s+(?:what|the\s+language)\s+(?:i|we)\s+(?:speak|use)\b`,
  "gi",
  "is&speak|use",
);
const EN_LEARNING = pattern(
  String.raw`\b(?:learning|studying|study|learn|taking|brush(?:ing)?\s+up|practi[cs](?:e|ing))\b`,
  "i",
  "brush|learn|practic|practis|study|taking",
);

const LANGUAGES_EN_RE1 = pattern(
  String.raw`\b(?:so|because|but|since|to|for|with|at|when|while)\b`,
  "i",
  "at|because|but|for|since|so|to|when|while|with",
);

/** Where an English clause calls a language the user's own; the groups hold its name. */
const EN_NATIVE = pattern(
  String.raw`\bnative\s+([a-z]+)\s+speaker\b|\bnative\s+(?:in|speaker\s+of)\s+([a-z]+)|\b(?:native|first|mother)\s+(?:language|tongue)\s+(?:is|was)\s+([a-z]+)|\b([a-z]+)\s+(?:is|was)\s+my\s+(?:native|first|mother)\s+(?:language|tongue)\b|\bgrew\s+up\s+speaking\s+([a-z]+)`,
  "gi",
  "language|native|speaker|speaking|tongue",
);
/** The Korean equivalent: 모국어 before or after the name, or 원어민/네이티브 after it. */
const KO_NATIVE = pattern(
  String.raw`(\S+?)(?:가|이|는|은)?(?=\s+(?:제\s+|내\s+)?모국어)|모국어(?:는|가)\s+(\S+)|(\S+?)\s*(?:원어민|네이티브)`,
  "g",
  "네이티브|모국어|원어민",
);

/** Codes of the languages a pattern's groups name (the native ones, or those named before the verb). */
function nativeCodes(text: string, native: typeof EN_NATIVE): Set<string> {
  const out = new Set<string>();
  for (const m of native.all(text)) {
    const word = m.slice(1).find((group) => group !== undefined);
    const code = word === undefined ? undefined : languageCode(word);
    if (code !== undefined) out.add(code);
  }
  return out;
}

/** English: the languages after a speaking/learning verb of the speaker (text already expanded). */
export function languagesEn(text: string): Candidate[] {
  const native = nativeCodes(text, EN_NATIVE);
  // "Spanish is my first language", "Arabic is what we speak at home": the clause names the
  // language before its verb.
  const before = new Set([
    ...native,
    ...nativeCodes(text, EN_SPOKEN_FIRST),
    ...nativeCodes(text, EN_USE),
  ]);
  const named = (words: readonly string[]) =>
    words.filter((word) => before.has(languageCode(word) ?? ""));
  const trigger = EN_SPEAK.exec(text);
  if (trigger === null) {
    return before.size === 0
      ? []
      : languageCandidates(named(splitWords(text, "", false)), "en", false, native);
  }
  // After the verb: "I am trying to brush up on my German" is not cut at its "to".
  const rest = text.slice(trigger.index + trigger[0].length);
  // "I'm learning Korean so I can talk to my in-laws": the list ends at the next clause word.
  const list = LANGUAGES_EN_RE1.split(rest)[0] ?? rest;
  const learning = EN_LEARNING.test(trigger[0]);
  return languageCandidates(
    [
      ...named(splitWords(text.slice(0, trigger.index), "", false)),
      ...splitWords(list, "", false).filter((word) => word !== ""),
    ],
    "en",
    learning,
    native,
  );
}

const KO_SPEAK = pattern(
  String.raw`할\s*줄\s*(?:알|아)|할\s*수\s*있|(?:잘|유창하게|조금|좀|약간|꽤|능숙하게|편하게|자유롭게|곧잘|그럭저럭|둘\s*다|셋\s*다|모두)\s*(?:해|합니다|함|하는)|공부|배우|배워|배운|독학|구사|원어민|모국어|(?:어|말)(?:를|을|도|는|랑)?\s*(?:해요|합니다|해(?=$|\s|[.!~])|함|하고|하는데)|회화|(?:어|말)(?:(?:를|을|도|는|은|로)\s+(?:\S+\s+){0,3}?|\s*)(?:써요|씁니다|써(?=$|\s|[.!~])|쓰고\s*있|사용해|사용합)`,
  "",
  "사용합|사용해|써|쓰고|씁니다|공부|구사|그럭저럭|꽤|능숙하게|독학|둘|모국어|모두|배우|배운|배워|셋|약간|원어민|유창하게|자유롭게|잘|조금|좀|편하게|하고|하는데|할|함|합니다|해|회화",
);
const KO_LEARNING = pattern(
  "공부|배우|배워|배운|독학|수업|학원",
  "",
  "공부|독학|배우|배운|배워|수업|학원",
);

const LANGUAGES_KO_RE1 = pattern("(?:이랑|랑|하고|와|과|,)$", "", ",|과|랑|와|하고");
const LANGUAGES_KO_RE2 = pattern("(?<=[어말])(?:이랑|랑|하고|와|과|,)", "", "말|어");

/** Korean: language names (particles stripped) in a clause with a speaking/learning verb. */
export function languagesKo(text: string): Candidate[] {
  if (!KO_SPEAK.test(text)) return [];
  const words = tokensOf(text).flatMap((token) => LANGUAGES_KO_RE1.split(token));
  const names = words.flatMap((word) => LANGUAGES_KO_RE2.split(word));
  return languageCandidates(names, "ko", KO_LEARNING.test(text), nativeCodes(text, KO_NATIVE));
}

/** The Korean name as said, without its particle or copula ("베트남어고" → 베트남어, "중국말로" → 중국말). */
function koreanName(said: string, code: string): string {
  const name = LANGUAGE_NAMES[code as (typeof LANGUAGE_CODES)[number]]?.[1];
  return name !== undefined && said.startsWith(name) ? name : stripParticle(said);
}

function languageCandidates(
  words: readonly string[],
  lang: "ko" | "en",
  learning: boolean,
  native: ReadonlySet<string> = new Set(),
): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const code = languageCode(word);
    if (code === undefined || seen.has(code)) continue;
    seen.add(code);
    // The display name, unless the user named it another way ("Mandarin" stays Mandarin).
    const display = LANGUAGE_NAMES[code as (typeof LANGUAGE_CODES)[number]]?.[0] ?? word;
    const said = LANGUAGE_CODE_RE1.replace(word, "");
    const name =
      lang === "en"
        ? display.toLowerCase() === said.toLowerCase()
          ? display
          : `${said.slice(0, 1).toUpperCase()}${said.slice(1)}`
        : koreanName(said, code);
    out.push({
      category: "other",
      value: name,
      lang,
      key: `language:${code}`,
      slot: "language",
      form: native.has(code) ? "native" : learning ? "learning" : "plain",
    });
  }
  return out;
}
