/**
 * Korean rules of the heuristic extractor. Each rule reads one clause (already known to be
 * a statement, not a question or hypothetical) and returns candidates; particles are
 * handled by korean.ts so "서울에서/서울에/서울은/서울로" all give "서울". The rules live by
 * topic in extract-ko-profile.ts (name, residence, workplace, job), extract-ko-life.ts
 * (family, likes, health) and extract-ko-plans.ts (plans, possessions, other), with what they
 * share in extract-ko-shared.ts; this module runs them on a clause and holds the retractions.
 */

import type { Candidate, Retraction } from "./build.ts";
import { family, health, likes } from "./extract-ko-life.ts";
import { other, plans, possessions } from "./extract-ko-plans.ts";
import { job, name, residence, workplace } from "./extract-ko-profile.ts";
import { ADVS, rx, T } from "./extract-ko-shared.ts";
import { type GateName, KO_GATES, open } from "./gates.ts";
import { isContentWord, splitParticle, stripParticle, subjectOfKo, tokensOf } from "./korean.ts";
import { languagesKo } from "./languages.ts";
import { PET_RELATIONS, possessionKind } from "./lexicon.ts";
import { pattern } from "./regex.ts";

/** All Korean candidates of one statement clause. */
export function extractKo(text: string): Candidate[] {
  const tokens = tokensOf(text);
  let subject = subjectOfKo(tokens);
  // A pet named without 우리/제 ("강아지는 좋아해요") is a topic, not a family member talking.
  if (subject.kind === "family" && !subject.owned && PET_RELATIONS.has(subject.relation)) {
    subject = { kind: "self" };
  }
  const g = (gate: GateName, rule: () => Candidate[]): Candidate[] =>
    open(KO_GATES[gate], text) ? rule() : [];
  return [
    ...g("name", () => name(text)),
    ...g("residence", () => residence(text, subject)),
    ...g("workplace", () => workplace(text, subject)),
    ...g("job", () => job(text, subject)),
    ...g("family", () => family(text, subject)),
    ...g("likes", () => likes(text, subject)),
    ...g("health", () => health(text, subject)),
    ...plans(text, subject),
    ...g("possessions", () => possessions(text, subject)),
    ...g("other", () => other(text, subject)),
    ...(subject.kind === "self" ? g("languages", () => languagesKo(text)) : []),
  ];
}

/** Korean statements that take a fact back ("이제 서울에 안 살아요", "퇴사했어요"). */
const RETRACTION_HINT_KO = pattern(
  String.raw`안\s*(?:살|삽)|살지\s*않|그만|퇴사|관뒀|나왔|백수|팔았|처분|폐차|없어졌|잃어버렸|취소|연기|무산`,
  "",
  "관뒀|그만|나왔|무산|백수|살지|안|없어졌|연기|잃어버렸|처분|취소|퇴사|팔았|폐차",
);

const RETRACTIONS_KO_RE1 = rx(
  `${T}(\\S+)\\s+(?:더\\s*이상\\s+|이제\\s+)?(?:안\\s*(?:살아|살고|삽니다)|살지\\s*않)`,
  "살고|살아|살지|삽니다",
);
const RETRACTIONS_KO_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:팔았|처분했|폐차했|없어졌|잃어버렸)`,
  "없어졌|잃어버렸|처분했|팔았|폐차했",
);
const RETRACTIONS_KO_RE3 = rx(
  `${T}(\\S+)\\s+(?:(?:여행|출장|약속|면접|일정|계획)(?:이|은|는)?\\s*)?(?:취소|연기|무산)`,
  "무산|연기|취소",
);

const RETRACTIONS_KO_RE4 = pattern(
  String.raw`(?:회사|직장)(?:를|을|는|은)?\s*(?:그만뒀|그만두었|관뒀|퇴사했|나왔)|퇴사(?:했|를\s*했|함)|백수가\s*됐`,
  "",
  "관뒀|그만두었|그만뒀|나왔|백수가|퇴사",
);

export function retractionsKo(text: string): Retraction[] {
  if (!RETRACTION_HINT_KO.test(text)) return [];
  const out: Retraction[] = [];
  for (const m of RETRACTIONS_KO_RE1.all(text)) {
    const [stem, particle] = splitParticle(m[1] ?? "", ["에", "에서"]);
    if (particle !== "" && isContentWord(stem)) {
      out.push({ category: "residence", value: stem, id: "residence" });
    }
  }
  if (RETRACTIONS_KO_RE4.test(text)) {
    out.push({ category: "workplace", id: "workplace" });
  }
  for (const m of RETRACTIONS_KO_RE2.all(text)) {
    const value = stripParticle(m[1] ?? "", ["을", "를", "는", "은", "도"]);
    if (!isContentWord(value)) continue;
    const kind = possessionKind(value);
    out.push(
      kind === undefined
        ? { category: "possession", value }
        : { category: "possession", id: `possession:${kind}` },
    );
  }
  for (const m of RETRACTIONS_KO_RE3.all(text)) {
    const value = stripParticle(m[1] ?? "", ["이", "가", "은", "는", "을", "를"]);
    if (isContentWord(value)) out.push({ category: "plan", value });
  }
  return out;
}
