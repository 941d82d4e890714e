/**
 * Phrase rows (R8.2): cue patterns as data, one small engine. Each row is a pattern over a
 * clause whose named groups say what they hold — `job`, `org` (the workplace), `place`
 * (where the user lives), `relation` and `name` (a member of the family) — and the words
 * one of which the clause must contain before the pattern is tried. A value a group gives
 * is cut at the words that end a place or a thing and must then fit its slot (fit.ts).
 *
 * A new way of saying a fact is a row here with its example; the unit test runs every
 * row on its example.
 */
import { type Candidate, toFact } from "./build.ts";
import { RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import { memberFact } from "./members.ts";
import type { Fact, FactLang } from "./types.ts";
import { cut, PLACE_STOP } from "./values.ts";

export interface PhraseRow {
  readonly lang: FactLang;
  /** Lower-case words, one of which the clause must contain. */
  readonly need: readonly string[];
  /** Named groups: job, org, place, relation, name. */
  readonly pattern: RegExp;
  /** A clause the row reads, and what it gives ("job=recruiter"). */
  readonly example: readonly [string, readonly string[]];
}

export const PHRASES: readonly PhraseRow[] = [
  {
    // "남자친구랑 사귄 지 3년 됐어요": the partner the user is dating.
    lang: "ko",
    need: ["사귄", "사귀", "연애"],
    pattern:
      /(?<relation>남자친구|여자친구|남친|여친|애인)(?:랑|이랑|하고|와|과)\s*(?:사귄|사귀|연애)/,
    example: ["남자친구랑 사귄 지 3년 됐어요", ["family=남자친구"]],
  },
  {
    // "이제 준호를 남편이라고 부르는 게 어색해요": a named member called by a new relation.
    lang: "ko",
    need: ["라고 부르", "라고 불러"],
    pattern:
      /(?<name>[가-힣]{1,4})(?:을|를)\s*(?<relation>남편|아내|와이프|신랑|남자친구|여자친구)(?:이라고|라고)\s*(?:부르|불러)/,
    example: ["이제 준호를 남편이라고 부르는 게 어색해요", ["family=남편 준호"]],
  },
  {
    // "서울 관악구에 원룸 구했어요", "신혼집은 대전 유성구에 구했어요": a home found.
    lang: "ko",
    need: ["구했", "얻었", "마련했"],
    pattern:
      /(?:^|\s)(?:(?:신혼집|새\s*집|집|원룸|방)(?:은|을|도)?\s+)?(?<place>[가-힣]{2,8}(?:\s[가-힣]{2,8})?)에\s*(?:(?:원룸|투룸|집|방|전셋집|월셋집|오피스텔)(?:을|를)?\s*)?(?:구했|얻었|마련했)/,
    example: ["서울 관악구에 원룸 구했어요", ["residence=서울 관악구"]],
  },
];

/** A Korean clause about someone else ("친구가 남자친구랑 사귄 지…"): no row reads it. */
const OTHER_KO =
  /(?:^|\s)(?:친구|동생|형|누나|언니|오빠|엄마|아빠|동료|상사|남편|아내|딸|아들|걔)(?:가|이|는|도)\s/;

const hasNeed = (lower: string, need: readonly string[]): boolean =>
  need.some((word) => lower.includes(word));

function relationOfWord(word: string, lang: FactLang): string | undefined {
  return lang === "ko" ? RELATIONS_KO[word] : RELATIONS_EN[word.toLowerCase()];
}

/** The facts the phrase rows read in one clause (before the slot fit, extract.ts). */
export function phraseFacts(clause: string, source: string, turn: number | undefined): Fact[] {
  const lower = clause.toLowerCase();
  const out: Fact[] = [];
  const otherKo = OTHER_KO.test(clause);
  for (const row of PHRASES) {
    if (!hasNeed(lower, row.need) || (row.lang === "ko" && otherKo)) continue;
    const groups = row.pattern.exec(clause)?.groups;
    if (groups === undefined) continue;
    const add = (candidate: Candidate): void => {
      if (candidate.value.trim() !== "") out.push(toFact(candidate, source, turn));
    };
    const lang = row.lang;
    if (groups.job !== undefined)
      add({ category: "job", value: cut(groups.job, PLACE_STOP, 5), lang });
    if (groups.org !== undefined) {
      add({ category: "workplace", value: cut(groups.org, PLACE_STOP, 5), lang });
    }
    if (groups.place !== undefined) add({ category: "residence", value: groups.place, lang });
    const word = groups.relation;
    const relation = word === undefined ? undefined : relationOfWord(word, lang);
    if (word !== undefined && relation !== undefined) {
      const fact = toFact(
        { category: "family", value: word, lang, key: relation, detail: clause },
        source,
        turn,
      );
      out.push(groups.name === undefined ? fact : memberFact(fact, word, { name: groups.name }));
    }
  }
  return out;
}
