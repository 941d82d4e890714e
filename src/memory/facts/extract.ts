/**
 * Heuristic fact extraction (R8.1 `heuristic`): rule-based, Korean and English, no model.
 *
 * An utterance is split into clauses (clauses.ts). A clause states nothing when it is a
 * question ("Where do I live?", "제가 어디 살죠?") or a hypothetical / wish ("if I lived
 * in Paris", "I wish I had a Porsche", "파리에 산다면", "제주도에 살고 싶어요").
 * Negations are not facts of their own: "I don't live in Seoul anymore" / "서울에 안
 * 살아요" extract nothing here but produce a retraction (extractRetractions), which
 * updateFacts applies before merging, so the stale fact is dropped. "I don't like X" /
 * "X 안 좋아해요" is a `dislike` fact. Past-only statements ("I used to live in …", "I
 * was a teacher", "은행원이었어요", "살았어요") are not current facts and are skipped.
 *
 * Statements about other people ("My friend lives in Busan", "친구가 제주도에 살아요")
 * give no user fact; family members give one `family` fact per relation ("남편은
 * 공무원이에요" → family:husband with the clause as detail), not the member's job.
 *
 * Cost: a bounded number of precompiled regular expressions per clause (≈0.2 ms CPU for a
 * typical utterance once warm); input beyond {@link MAX_EXTRACT_CHARS} characters, clause
 * text beyond {@link MAX_CLAUSE_CHARS} and clauses beyond {@link MAX_CLAUSES} are ignored
 * (a pasted document is not a profile). The first call in a fresh isolate also compiles
 * the expressions its clauses can match, each once and straight to machine code
 * (regex.ts): a few milliseconds; {@link warmUpFactRules} can move that to startup.
 */
import { type Candidate, type Retraction, toFact } from "./build.ts";
import { type Clause, isHypothetical, isQuestion, splitClauses } from "./clauses.ts";
import { filledClause, topicOf } from "./ellipsis.ts";
import { englishClause, FIRST_PERSON } from "./english.ts";
import { fitsSlot, isBarePhrase, isRequest } from "./fit.ts";
import { EN_LANGUAGE_GATE, KO_LANGUAGE_GATE, open } from "./gates.ts";
import { subjectOfKo, tokensOf } from "./korean.ts";
import { languagesEn, languagesKo } from "./languages.ts";
import { BUSINESSES_EN, NOT_NAMES_EN, PET_RELATIONS, RELATIONS_KO } from "./lexicon.ts";
import { memberFact, membersOf } from "./members.ts";
import { pattern } from "./regex.ts";
import { runRetractions, runRules } from "./rules.ts";
import { RULES_EN } from "./rules-en.ts";
import { HEARSAY, RULES_KO } from "./rules-ko.ts";
import { cleanText, type Fact, hasHangul, valueKey } from "./types.ts";
import { OWN_BUSINESS_NAME } from "./values.ts";

export type { Retraction } from "./build.ts";

/** Only the first this many characters of an utterance are read. */
export const MAX_EXTRACT_CHARS = 2000;

export interface ExtractOptions {
  /** The turn number of the utterance (stored as `turn`). */
  turn?: number | undefined;
  /**
   * The previous user turn introduced a family member or pet ("나 고양이 키워"): a
   * subject-less first clause ("이름은 두부야") is about them (see factsOf).
   */
  afterMember?: boolean | undefined;
  /**
   * Businesses the user already owns ("bakery" of the job "bakery owner"): "the bakery opened,
   * it's called Flour & Bloom" names the user's workplace (see ownBusiness).
   */
  ownBusinesses?: readonly string[] | undefined;
  /**
   * Names of the user's family members and pets ("보리"): a clause whose topic is one of them
   * ("보리는 … 산책을 좋아해요") is about the member, and so are the subjectless clauses after it.
   */
  memberNames?: readonly string[] | undefined;
}

const SPEAKER_INSIDE = pattern(
  String.raw`\s(?:저는|전|나는|난|제가|내가)\s`,
  "",
  "나는|난|내가|저는|전|제가",
);

/** The clause opens with a member's name as its topic or subject ("보리는", "Biscuit is"). */
function opensWithMember(text: string, names: readonly string[] | undefined): boolean {
  if (names === undefined || names.length === 0) return false;
  const head = text.trimStart().slice(0, 24).toLowerCase();
  const opens = names.some((name) => {
    if (!head.startsWith(name)) return false;
    const rest = head.slice(name.length).split(" ", 1)[0] ?? "";
    return rest === "" || MEMBER_PARTICLE.has(rest);
  });
  // "보리는 산책 좋아하고 저는 등산을 좋아해요": the speaker comes in within the clause.
  return opens && !SPEAKER_INSIDE.test(text);
}

/** What may follow a member's name that opens a clause ("보리는", "서연이가", "Leo's"). */
const MEMBER_PARTICLE: ReadonlySet<string> = new Set(
  "는 은 가 이 도 랑 이는 이가 이도 이랑 's".split(" "),
);

/** A business the clause says is the user's own ("my bakery", "we opened a cafe"). */
const OWN_BUSINESS = pattern(
  `\\b(?:(?:my|our)\\s+(?:own\\s+)?(?:new\\s+|little\\s+|small\\s+)?|(?:i|we)\\s+(?:just\\s+|finally\\s+)?(?:opened|run|own|started|launched)\\s+(?:a|an|my|our)\\s+(?:own\\s+)?(?:new\\s+|little\\s+|small\\s+)?)(?:${BUSINESSES_EN})\\b`,
  "i",
  `${BUSINESSES_EN.replace("café", "caf")}`,
);
const BUSINESS = pattern(`\\b(?:${BUSINESSES_EN})\\b`, "gi", BUSINESSES_EN.replace("café", "caf"));

/** Whether a clause names a business of the user's: said as theirs, or one they own already. */
function ownBusiness(text: string, owned: readonly string[] | undefined): boolean {
  if (OWN_BUSINESS.test(text)) return true;
  if (owned === undefined || owned.length === 0) return false;
  return (BUSINESS.matchAll(text) ?? []).some((word) => owned.includes(word.toLowerCase()));
}

/**
 * A clause longer than this is cut (at a space), and at most {@link MAX_CLAUSES} clauses
 * are read: facts are stated in short clauses, and the bounds keep the worst case (a
 * pasted wall of text) to a few milliseconds.
 */
export const MAX_CLAUSE_CHARS = 300;
export const MAX_CLAUSES = 24;

function statements(text: unknown): Clause[] {
  if (typeof text !== "string") return [];
  const input = text.length > MAX_EXTRACT_CHARS ? text.slice(0, MAX_EXTRACT_CHARS) : text;
  return splitClauses(input)
    .map((clause) => {
      if (clause.text.length <= MAX_CLAUSE_CHARS) return clause;
      const cut = clause.text.slice(0, MAX_CLAUSE_CHARS);
      const space = cut.lastIndexOf(" ");
      return { ...clause, text: space > 0 ? cut.slice(0, space) : cut };
    })
    .slice(0, MAX_CLAUSES)
    .reduce<Clause[]>((out, clause) => {
      // "제가 비건이라 고기 빼 주세요": the reason goes before the request it gives.
      const reason = reasonOfRequest(clause);
      if (reason !== undefined) out.push(reason);
      out.push(clause);
      return out;
    }, [])
    .filter((clause, at, all) => {
      if (isQuestion(clause) || isHypothetical(clause) || isRequest(clause.text)) return false;
      // "Suggest a trip for me | and my kids": a bare noun phrase goes on with the request.
      const before = all[at - 1];
      return !(before !== undefined && isBarePhrase(clause.text) && isRequest(before.text));
    });
}

/**
 * "제가 비건이라 고기 빼 주세요": the reason a request gives is a statement of its own (the
 * user is vegan), the request is not.
 */
const REQUEST_REASON_KO = pattern(
  String.raw`^(?<reason>.+?(?:이라서|이라|라서|이니까|니까|때문에|이어서|여서))\s+\S`,
  "",
  "니까|때문에|라서|여서|이라|이어서",
);

function reasonOfRequest(clause: Clause): Clause | undefined {
  const reason = REQUEST_REASON_KO.exec(clause.text)?.groups?.reason;
  if (reason === undefined || !isRequest(clause.text)) return undefined;
  return { ...clause, text: reason };
}

const LATIN = pattern(String.raw`[A-Za-z]{2}|\b[Ii]\b`);

/** The English rows on a clause, and the languages the speaker speaks (languages.ts). */
function extractEn(raw: string): Candidate[] {
  const text = englishClause(raw);
  const self = FIRST_PERSON.test(text);
  const found = runRules(RULES_EN, self ? text : text.trim(), self);
  return self && open(EN_LANGUAGE_GATE, text.toLowerCase())
    ? [...found, ...languagesEn(text)]
    : found;
}

/**
 * The Korean rows on a clause: the rows for the user need the user as the clause's subject
 * (subjectOfKo); a family member as the subject is that member; the languages the user speaks.
 */
function extractKo(text: string): Candidate[] {
  let subject = subjectOfKo(tokensOf(text));
  // A pet named without 우리/제 ("강아지는 좋아해요") is a topic, not a family member talking.
  if (subject.kind === "family" && !subject.owned && PET_RELATIONS.has(subject.relation)) {
    subject = { kind: "self" };
  }
  const self = subject.kind === "self";
  const found = runRules(RULES_KO, text, self);
  if (subject.kind === "family" && !HEARSAY.test(text)) {
    const relation = RELATIONS_KO[subject.word];
    if (relation !== undefined) {
      found.push({
        category: "family",
        value: subject.word,
        lang: "ko",
        key: relation,
        detail: text,
      });
    }
  }
  return self && open(KO_LANGUAGE_GATE, text) ? [...found, ...languagesKo(text)] : found;
}

function retractionsEn(raw: string): Retraction[] {
  const text = englishClause(raw);
  return FIRST_PERSON.test(text) ? runRetractions(RULES_EN, text) : [];
}

/** English rules need a Latin word ("I", "my", "we" …); Korean rules need Hangul. */
function candidatesOf(clause: Clause): Candidate[] {
  const en = LATIN.test(clause.text) ? extractEn(clause.text) : [];
  return hasHangul(clause.text) ? [...en, ...extractKo(clause.text)] : en;
}

/**
 * A clause that gives an allergy as the reason for the next one ("글루텐 알레르기 있어서 | 빵은 못
 * 먹어요", "allergic to nuts, so | I can't eat cake"): what the next clause cannot eat follows
 * from the allergy and is not a fact of its own.
 */
const ALLERGY_REASON = pattern(
  String.raw`(?:알레르기|알러지|알레지|알르레기|앨러지)(?:가|이)?\s*(?:있어서|있으니까|있으니|있어가지고|때문에|땜에)$`,
  "",
  "알러지|알레르기|알레지|알르레기|앨러지",
);

/**
 * A clause set in the past by a time phrase ("어릴 때 독일에서 살아서", "as a kid I lived…",
 * "back then I worked at…"): a connective such as 살아서 carries no tense of its own, so the
 * phrase says where the user lived or worked then, not now. Where they grew up stays.
 */
const PAST_TIME = pattern(
  String.raw`(?:^|\s)(?:어릴\s*때|어렸을\s*때|어릴\s*적|어린\s*시절|예전에|옛날에|학생\s*때|학창\s*시절|대학\s*때|대학생\s*때|한때)|\b(?:when\s+i\s+was\s+(?:a\s+kid|a\s+child|little|young|younger|a\s+teenager|in\s+college)|as\s+a\s+(?:kid|child|teenager)|back\s+then|back\s+in\s+the\s+day|years\s+ago)\b`,
  "i",
  "back|child|kid|teenager|when|years|대학|어렸을|어린|어릴|예전에|옛날에|학생|학창|한때",
);
const CURRENT_ONLY = new Set(["residence", "workplace", "job"]);

const NARROWABLE = new Set(["preference", "dislike", "allergy", "health", "plan", "possession"]);

/** A member said by the relation word alone ("딸"), without a name or an age. */
const BARE_MEMBER = pattern(String.raw`^[^\s,\d]+$`);

/**
 * Within one utterance: one fact per id (the last, unless it is a bare mention of a member an
 * earlier clause gave: "My daughter just turned 5 딸이 …" keeps the daughter said first, whose
 * age is read from her clause),
 * and "부산 여행" wins over "부산".
 */
function dedupe(facts: readonly Fact[]): Fact[] {
  const byId = new Map<string, Fact>();
  for (const fact of facts) {
    const before = byId.get(fact.id);
    if (before !== undefined && fact.category === "family" && BARE_MEMBER.test(fact.value))
      continue;
    byId.delete(fact.id);
    byId.set(fact.id, fact);
  }
  const all = [...byId.values()];
  // "워킹맘이에요. 딸이 하나 있는데 …": a son or a daughter says the children, so the bare
  // "children" beside them is no member of its own.
  const namedChild = all.some(
    (fact) => fact.id.startsWith("family:son") || fact.id.startsWith("family:daughter"),
  );
  return all.filter((fact) => {
    if (namedChild && fact.id === "family:children" && BARE_MEMBER.test(fact.value)) return false;
    if (!NARROWABLE.has(fact.category)) return true;
    const key = valueKey(fact.value);
    return !all.some(
      (other) =>
        other !== fact &&
        other.category === fact.category &&
        !other.id.includes(":favorite:") &&
        !fact.id.includes(":favorite:") &&
        valueKey(other.value) !== key &&
        valueKey(other.value).includes(key),
    );
  });
}

/** A clause that names its subject as the speaker ("저는", "I'm"), not a dropped one. */
const SELF_SUBJECT = pattern(
  String.raw`^(?:저는|전|나는|난|제가|내가|저|나|제|내)\s|\b(?:i|my|i'm|im)\b`,
  "i",
  "i|my|나|난|내|저|전|제",
);

/**
 * After a clause about a family member or pet ("남동생이 하나 있어요", "강아지 키워요"), a
 * next clause without a subject is about them: "대학생이에요" is the brother's, "이름은
 * 초코예요" the dog's. Its name, job and age are not the user's.
 */
const ABOUT_MEMBER: ReadonlySet<string> = new Set(["name", "job", "other"]);

/** The speaker brings up their own name somewhere in the utterance, a question included. */
const OWN_NAME = ["제 이름", "내 이름", "저의 이름", "나의 이름", "my name", "the name"];

function mentionsOwnName(text: string): boolean {
  const lower = text.toLowerCase();
  return OWN_NAME.some((phrase) => lower.includes(phrase));
}

/** Copula endings a bare Korean name takes ("도윤이에요", "지수예요", "민준이야"). */
const KO_COPULA_ENDS = ["이에요", "예요", "에요", "이야", "입니다", "이요", "야"];

/**
 * One word of at most 12 characters that can be a name: a Korean word with a copula
 * ending, or a capitalised English word that is no common word ("Jules", not "Sorry").
 */
/**
 * "Sam, by the way." as the whole first sentence: a casual introduction the comma split in
 * two. Not when the sentence goes on ("Paris, by the way, is lovely") or the word is an
 * interjection ("Thanks, by the way!").
 */
const BY_THE_WAY_INTRO = pattern(
  String.raw`^(?!(?:thanks|thank|sorry|okay|ok|yes|yeah|no|nope|well|anyway|also|oh|hmm|cool|great|nice|wow|congrats|cheers)\b)[A-Z][a-z]+,\s*(?:by the way|btw)\s*(?:[.!]|$)`,
  "i",
  "btw|by the way",
);

function isBareWord(text: string): boolean {
  if (text.length > 12 || text.includes(" ")) return false;
  if (hasHangul(text))
    return KO_COPULA_ENDS.some((end) => text.endsWith(end) && text.length > end.length);
  const first = text[0] ?? "";
  return first !== first.toLowerCase() && !NOT_NAMES_EN.has(text.toLowerCase());
}

function factsOf(clauses: readonly Clause[], text: string, options?: ExtractOptions): Fact[] {
  if (clauses.length === 0) return [];
  const source = cleanText(text);
  const turn =
    typeof options?.turn === "number" && Number.isFinite(options.turn) ? options.turn : undefined;
  const facts: Fact[] = [];
  let member = options?.afterMember === true;
  let topic: string | undefined;
  let reason = false;
  let aboutNamed = false;
  const named = mentionsOwnName(source);
  for (const [at, clause] of clauses.entries()) {
    let candidates = candidatesOf(clause);
    // "it's called Flour & Bloom": a workplace only when this clause or the one before named
    // the user's business.
    if (candidates.some((c) => c.key === OWN_BUSINESS_NAME)) {
      const before = clauses[at - 1]?.text;
      const owns =
        ownBusiness(clause.text, options?.ownBusinesses) ||
        (before !== undefined && ownBusiness(before, options?.ownBusinesses));
      candidates = candidates.flatMap((c) =>
        c.key !== OWN_BUSINESS_NAME ? [c] : owns ? [{ ...c, key: undefined }] : [],
      );
    }
    // "Sam, by the way.": the comma split the casual introduction in two.
    if (at === 0 && candidates.length === 0 && BY_THE_WAY_INTRO.test(source)) {
      const joined = { ...clause, text: `${clause.text} by the way` };
      candidates = candidatesOf(joined).filter((c) => c.category === "name");
    }
    // "sushi is an exception, I love it": a clause that left its thing out (ellipsis.ts).
    const filled =
      candidates.length === 0 && topic !== undefined ? filledClause(clause.text, topic) : undefined;
    if (filled !== undefined) candidates = candidatesOf({ ...clause, text: filled });
    // "제 이름 말 안 했죠? 도윤이에요": a bare word after the speaker brought up their name.
    if (candidates.length === 0 && named && isBareWord(clause.text)) {
      const own = hasHangul(clause.text) ? `제 이름은 ${clause.text}` : `my name is ${clause.text}`;
      candidates = candidatesOf({ ...clause, text: own }).filter((c) => c.category === "name");
    }
    if (reason) candidates = candidates.filter((c) => c.form !== "cant-eat");
    if (candidates.length > 0 && PAST_TIME.test(clause.text)) {
      candidates = candidates.filter((c) => !CURRENT_ONLY.has(c.category) || c.form === "hometown");
    }
    reason =
      ALLERGY_REASON.test(clause.text) &&
      candidates.some((c) => c.category === "allergy" && c.form !== "cant-eat");
    topic = topicOf(clause.text);
    const subjectless = !SELF_SUBJECT.test(clause.text);
    // "보리는 두 살 된 믹스견인데 | 산책을 좋아해요": what follows a member's name is theirs.
    aboutNamed = opensWithMember(clause.text, options?.memberNames) || (aboutNamed && subjectless);
    const kept = aboutNamed
      ? candidates.filter((c) => c.category === "family")
      : member && subjectless
        ? candidates.filter((c) => !ABOUT_MEMBER.has(c.category) || c.slot === "language")
        : candidates;
    member = candidates.some((c) => c.category === "family") || (member && subjectless);
    for (const candidate of kept) {
      const base = toFact(candidate, source, turn);
      const fact =
        candidate.name === undefined
          ? base
          : memberFact(base, candidate.value, { name: candidate.name });
      if (fact.value === "" || valueKey(fact.value) === "") continue;
      if (!fitsSlot(fact, clause.text)) continue;
      facts.push(fact);
    }
  }
  const found = dedupe(facts);
  const family = found.filter((fact) => fact.category === "family");
  if (family.length === 0) return found;
  const sole = family.length === 1;
  return dedupe(
    found.flatMap((fact) => (fact.category === "family" ? membersOf(fact, source, sole) : [fact])),
  );
}

function retractionsOf(clauses: readonly Clause[]): Retraction[] {
  const out: Retraction[] = [];
  for (const clause of clauses) {
    if (LATIN.test(clause.text)) out.push(...retractionsEn(clause.text));
    if (hasHangul(clause.text)) out.push(...runRetractions(RULES_KO, clause.text));
  }
  return out;
}

/**
 * The facts a user utterance states (see the file header). Never throws: anything that is
 * not a string, or states nothing, gives [].
 */
export function extractFacts(text: string, options?: ExtractOptions): Fact[] {
  return factsOf(statements(text), text, options);
}

/**
 * What an utterance takes back: "I don't live in Seattle anymore", "I quit my job",
 * "I sold my car", "이제 서울에 안 살아요", "퇴사했어요", "차 팔았어요", "여행 취소됐어요".
 */
export function extractRetractions(text: string): Retraction[] {
  return retractionsOf(statements(text));
}

/** Both at once (the clauses are split and classified once). */
export function analyseUtterance(
  text: string,
  options?: ExtractOptions,
): { facts: Fact[]; retractions: Retraction[] } {
  const clauses = statements(text);
  return { facts: factsOf(clauses, text, options), retractions: retractionsOf(clauses) };
}

/**
 * Runs the rules once on sample text so the expressions those samples reach are compiled
 * before the first real turn (about 18 ms of CPU in a fresh isolate, more than a typical
 * first fact turn saves: the runtime does not call it). For a host that can spend CPU
 * at startup with `facts_mode` on; calling it again is cheap.
 */
export function warmUpFactRules(): void {
  for (const sample of WARM_UP) analyseUtterance(sample);
}

const WARM_UP = [
  "Hi, I'm Sam. I live in Busan, I work at Acme as a nurse and I love Thai food. I'm allergic to peanuts, I have a dog, I drive a Tesla and I'm flying to Tokyo next Friday. I don't live in Seoul anymore.",
  "저는 민수라고 해요. 서울에 살고 카카오에서 일해요. 간호사예요. 땅콩 알레르기가 있고 오이를 싫어해요. 커피를 좋아해요. 아들이 하나 있어요. 제 차는 아반떼예요. 다음 주에 제주도 가요. 서른 살이에요. 이제 부산에 안 살아요.",
];
