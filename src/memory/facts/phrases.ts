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
import { cut, PLACE_STOP } from "./extract-en-shared.ts";
import { RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import { memberFact } from "./members.ts";
import type { Fact, FactLang } from "./types.ts";

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
    // "I start next week as a recruiter at Mercy Hospital", "starting Monday as a PM at Fernwood".
    lang: "en",
    need: ["start"],
    pattern:
      /\b(?:i\s+(?:start|'ll start|will start|am starting|'m starting)|starting)\s+(?:(?:next|this|on)\s+)?(?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today)?\s*as\s+(?:a|an)\s+(?<job>[a-z][a-z -]{1,40}?)\s+(?:at|for|with)\s+(?<org>[A-Z][\w&.' -]{1,60})/i,
    example: [
      "Good news! I start next week as a recruiter at Mercy Hospital",
      ["job=recruiter", "workplace=Mercy Hospital"],
    ],
  },
  {
    // "I got promoted to senior engineer": the new title is the job.
    lang: "en",
    need: ["promoted"],
    pattern:
      /\b(?:i|i've|i have|i just|i finally)\s+(?:just\s+|finally\s+)?(?:got|was|been|have been)\s+promoted\s+to\s+(?:a\s+|an\s+)?(?<job>[a-z][a-z -]{1,40})/i,
    example: ["I got promoted to senior engineer last month", ["job=senior engineer"]],
  },
  {
    // "I just joined Stripe as a designer": the workplace and the job.
    lang: "en",
    need: ["joined"],
    pattern:
      /\b[Ii](?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?joined\s+(?<org>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s+as\s+(?:a|an)\s+(?<job>[a-z][a-z -]{1,40})/,
    example: ["I just joined Stripe as a designer", ["workplace=Stripe", "job=designer"]],
  },
  {
    // "I got a job as a barista at Blue Bottle": the job, and the workplace when named.
    lang: "en",
    need: ["job as", "position as", "role as", "offer as"],
    pattern:
      /\b[Ii](?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:got|landed|accepted|took)\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role|offer)\s+as\s+(?:a|an)\s+(?<job>[a-z][a-z -]{1,40}?)(?:\s+(?:at|with|for)\s+(?<org>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})|[.!,]|$)/,
    example: ["I got a job as a barista at Blue Bottle", ["job=barista", "workplace=Blue Bottle"]],
  },
  {
    // "I became a nurse last year": the job the user has now.
    lang: "en",
    need: ["became"],
    pattern:
      /\b[Ii]\s+(?:just\s+|finally\s+|recently\s+)?became\s+(?:a|an)\s+(?<job>[a-z][a-z -]{1,40})/,
    example: ["I became a nurse last year", ["job=nurse"]],
  },
  {
    // "We signed a lease in Oakland", "I rented an apartment in Austin": a home the user
    // lives in (not one "for my parents"; a house bought may be an investment).
    lang: "en",
    need: ["rented", "lease"],
    pattern:
      /\b(?:[Ww]e|I)\s+(?:just\s+|finally\s+)?(?:rented|signed)\s+(?:a|an|our|my)\s+(?:new\s+)?(?:house|home|apartment|flat|condo|lease)\s+in\s+(?<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})(?!\s+for\b)(?![\w'-])/,
    example: ["We just signed a lease in Oakland", ["residence=Oakland"]],
  },
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
