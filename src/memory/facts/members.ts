/**
 * Members of the family and pets as slots of their own (R8.2, R8.3).
 *
 * A family fact names a relation (`family:son`). When the message also names the member or
 * gives an age ("My wife Grace and I have two boys, Leo who's 8 and Sam who's 3", "딸이 하나
 * 있는데 4살이에요", "유기견 입양했어요! 이름은 보리예요"), the fact becomes the member's: its
 * slot is the relation and the name (`family:son:leo`; `family:daughter` while unnamed) and
 * its value the relation, the name and the age ("son Leo, 8", "딸, 4살"). A plural relation
 * followed by names ("two boys, Leo … and Sam …") gives one member per name.
 *
 * Supersession happens per member (see {@link reviseMembers}):
 * - a newer age of a named member ("Leo turned 9", "보리는 두 살 된 믹스견") or of the only
 *   member of a relation ("벌써 딸이 5살이 됐어요") replaces the value of that slot, so the old
 *   age is retired, never shown as current;
 * - a mention that adds neither name nor age ("딸은 새 어린이집이 마음에 든대요", "my kids")
 *   leaves the member as it was;
 * - a named member replaces the unnamed one of the same relation, keeping its age.
 *
 * What ends a partner or a pet (a breakup, a divorce, a death) is a retraction cue
 * (retraction-cues.ts), which retires every member of the relation.
 */
import { NOT_NAMES_EN } from "./lexicon.ts";
import { PARTNER_RELATIONS } from "./slots.ts";
import { clip, type Fact, MAX_ID_CHARS } from "./types.ts";

const PARTNERS: ReadonlySet<string> = new Set(PARTNER_RELATIONS);

/** The relation of a family fact ("family:son:leo" → "son"). */
export function relationOf(fact: Fact): string | undefined {
  if (fact.category !== "family") return undefined;
  return fact.id.split(":")[1];
}

/** The member's name of a family fact's slot, lower-cased ("family:son:leo" → "leo"). */
function memberKey(fact: Fact): string | undefined {
  return fact.category === "family" ? fact.id.split(":")[2] : undefined;
}

/** Relations one member of which can carry an age: people and pets. */
const PLURAL_EN: Readonly<Record<string, string>> = {
  boys: "son",
  sons: "son",
  girls: "daughter",
  daughters: "daughter",
  kids: "child",
  children: "child",
  twins: "twin",
  dogs: "dog",
  cats: "cat",
};

/** How far along a partner is: dating, engaged, married (members.ts supersedes the earlier). */
const PARTNER_STAGE: Readonly<Record<string, number>> = {
  boyfriend: 1,
  girlfriend: 1,
  partner: 1,
  fiance: 2,
  spouse: 3,
  wife: 3,
  husband: 3,
};

/** A partner met without a relation word ("someone"), told apart by the pronoun. */
const PARTNER_BY_PRONOUN: Readonly<Record<string, string>> = {
  her: "girlfriend",
  his: "boyfriend",
  she: "girlfriend",
  "she's": "girlfriend",
  he: "boyfriend",
  "he's": "boyfriend",
};

const KO_NUMBERS: Readonly<Record<string, number>> = {
  한: 1,
  두: 2,
  세: 3,
  네: 4,
  다섯: 5,
  여섯: 6,
  일곱: 7,
  여덟: 8,
  아홉: 9,
  열: 10,
};

/** A capitalised word that can be a name ("Leo", not "I", "Christmas" or "Monday"). */
function nameEn(word: string | undefined): string | undefined {
  if (word === undefined || word.length < 2 || word.length > 20) return undefined;
  if (!/^[A-Z][a-z]+$/.test(word)) return undefined;
  return NOT_NAMES_EN.has(word.toLowerCase()) || NOT_NAMES_KNOWN.has(word) ? undefined : word;
}

/** Capitalised words that follow a relation without being its name. */
const NOT_NAMES_KNOWN: ReadonlySet<string> = new Set(
  "And But So Then When Who What Christmas Thanksgiving Easter Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December".split(
    " ",
  ),
);

/** Korean words that end like a name but are not one. */
const NOT_NAMES_KO: ReadonlySet<string> = new Set([
  "뭐",
  "누구",
  "비밀",
  "아직",
  "없",
  "몰라",
  "모름",
]);

function nameKo(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const name = word.replace(/(?:이)$/, (m, offset: number) => (offset >= 2 ? "" : m));
  if (!/^[가-힣]{1,4}$/.test(name) || NOT_NAMES_KO.has(name)) return undefined;
  return name;
}

function ageOf(digits: string | undefined, word?: string | undefined): number | undefined {
  if (digits !== undefined) {
    const n = Number(digits);
    return Number.isInteger(n) && n >= 0 && n <= 120 ? n : undefined;
  }
  return word === undefined ? undefined : KO_NUMBERS[word];
}

/** What a message says about one member: a name and an age, either may be missing. */
export interface MemberInfo {
  name?: string | undefined;
  age?: number | undefined;
}

/** Numbers followed by these are not ages ("Sam is 3 hours away", "Leo is 9 pm"). */
const NOT_AGE_UNITS =
  "am|pm|%|:|kg|lb|lbs|minutes|mins|hours|hrs|days|weeks|months|o'clock|percent|feet|ft|inches|cm|miles|km|points";

const KO_AGE =
  /^(?:이|가|은|는|도|랑|하고)?\s*(?:[^\s.!?]+\s+){0,3}?(?:(\d{1,3})|(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열))\s*살/;
const KO_NAME =
  /이름(?:은|이|는)\s*["']?([가-힣]{1,5}?)(?:이에요|예요|에요|이야|야|입니다|이고|이구요|이라고|라고|래요|이래요)/;
const KO_NAME_AT =
  /^(?:이|가|은|는)?\s*(?:이름은|이름이)\s*["']?([가-힣]{1,5}?)(?:이에요|예요|에요|이야|야|입니다|이고|라고|이라고)/;

/**
 * "우리 아들 지호는 5살이에요": a word right after the relation, with a particle and then an
 * age, is the member's name (without the age it could be any word: "아들 진짜 귀여워요").
 */
const KO_NAME_AGE =
  /^\s+([가-힣]{1,4}?)(?:이는|이가|는|가)\s+(?:[^\s.!?]+\s+){0,2}?(?:\d{1,3}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*살/;

/** Two or more of the relation ("고양이 두 마리", "아들 둘"): names that follow are a list. */
const KO_COUNT = /^(?:이|가|는|은|도)?\s*(?:(?:두|세|네|[2-9])\s*(?:마리|명)|둘|셋|넷)/;
/** "미소랑 두부예요", "이름은 하나, 두리예요": the names of the members just counted. */
const KO_NAME_LIST =
  /(?:^|[\s.!?~])(?:이름은\s*)?([가-힣]{1,4}(?:\s*(?:이랑|랑|하고|,)\s*[가-힣]{1,4})+)(?:이에요|예요|에요|이야|야|입니다|이고)(?=$|[\s.!?~])/;
const KO_LIST_SEPARATOR = /\s*(?:이랑|랑|하고|,)\s*/;

/** The names a Korean segment lists after a count of the relation, or none. */
function koNames(segment: string): string[] {
  if (!KO_COUNT.test(segment)) return [];
  const list = KO_NAME_LIST.exec(segment)?.[1];
  if (list === undefined) return [];
  const names = list.split(KO_LIST_SEPARATOR).map((word) => nameKo(word));
  return names.every((name) => name !== undefined) ? (names as string[]) : [];
}

/** The age a Korean segment gives right after the relation ("이 하나 있는데 4살이에요"). */
function koAge(segment: string): number | undefined {
  const m = KO_AGE.exec(segment);
  return m === null ? undefined : ageOf(m[1], m[2]);
}

const EN_NAME_AT = /^(?:'s\s+name\s+is\s+|\s*,?\s*(?:named|called)\s+|\s*,?\s+)([A-Z][a-z]+)/;
const EN_AGE_AT =
  /^(?:\s*,?\s*[A-Z][a-z]+)?(?:\s*,\s*|\s+(?:who's|who is|is|'s|just turned|turned|is now|who just turned|who turned)\s+)(?:now\s+)?(\d{1,2})\b(?!\s*(?:am|pm|%|:|kg|lb|lbs|minutes|hours|days|weeks|months|o'clock|percent|feet|ft|inches|cm|miles|km|points))/;
/** "Her name is Juno", "She's called Juno", "we named him Theo": a name said by a pronoun. */
const EN_NAME_ANY =
  /\b(?:(?:[Hh]er|[Hh]is|[Ii]ts|[Tt]heir|[Tt]he)\s+name\s+is|(?:[Ss]he|[Hh]e|[Ii]t)(?:'s|\s+is)\s+(?:called|named)|[Ww]e\s+(?:named|called)\s+(?:her|him|it))\s+([A-Z][a-z]+)/;
const EN_LIST_ITEM =
  /^(?:\s*(?:,|and\b|&|:|named\b|called\b))*\s*([A-Z][a-z]+)(?:(?:\s+who(?:'s|\s+is)|\s+is|\s*,)\s*(\d{1,2})\b(?!\s*(?:am|pm|%|:)))?/;

/**
 * One family fact of a message made the member's (see the file header), or several when a
 * plural relation lists names. `written` is the relation as the message wrote it.
 */
export function membersOf(fact: Fact, utterance: string, sole: boolean): Fact[] {
  const relation = relationOf(fact);
  if (relation === undefined || fact.id.split(":").length !== 2) return [fact];
  const written = fact.value;
  const at = wordAt(utterance, written, fact.lang);
  if (at < 0) return [fact];
  const segment = utterance.slice(at + written.length);
  if (fact.lang === "ko") {
    const names = koNames(segment);
    if (names.length >= 2) return names.map((name) => memberFact(fact, written, { name }));
    const nameMatch =
      KO_NAME_AT.exec(segment) ??
      KO_NAME_AGE.exec(segment) ??
      (sole ? KO_NAME.exec(segment) : null);
    const info: MemberInfo = { name: nameKo(nameMatch?.[1]), age: koAge(segment) };
    if (info.name === undefined && sole) info.name = nameKo(KO_NAME.exec(utterance)?.[1]);
    return [memberFact(fact, written, info)];
  }
  const plural = PLURAL_EN[written.split(/\s+/).at(-1)?.toLowerCase() ?? ""];
  if (plural !== undefined) {
    const listed: MemberInfo[] = [];
    let rest = segment;
    for (let m = EN_LIST_ITEM.exec(rest); m !== null; m = EN_LIST_ITEM.exec(rest)) {
      const name = nameEn(m[1]);
      if (name === undefined) break;
      listed.push({ name, age: ageOf(m[2]) });
      rest = rest.slice(m[0].length);
    }
    if (listed.length >= 2) return listed.map((info) => memberFact(fact, plural, info));
    return [fact];
  }
  const named = EN_NAME_AT.exec(segment);
  let name = nameEn(named?.[1]);
  let word = written.toLowerCase();
  let partner = fact;
  if (name === undefined && sole) {
    const any = EN_NAME_ANY.exec(utterance);
    name = nameEn(any?.[1]);
    // "seeing someone new. Her name is Priya": the pronoun says which partner.
    const pronoun = PARTNER_BY_PRONOUN[any?.[0].split(/\s+/)[0]?.toLowerCase() ?? ""];
    if (name !== undefined && relation === "partner" && pronoun !== undefined) {
      word = pronoun;
      partner = { ...fact, id: `family:${pronoun}` };
    }
  }
  const before = utterance.slice(0, at);
  const young = /(\d{1,2})-year-old\s+$/.exec(before);
  const age = ageOf(EN_AGE_AT.exec(segment)?.[1] ?? young?.[1]);
  return [memberFact(partner, word, { name, age })];
}

/**
 * Where the relation as written stands in the message: a whole English word ("son" is not
 * the end of "Jason"); a Korean relation word stands where it is first found.
 */
function wordAt(utterance: string, written: string, lang: string): number {
  if (lang === "ko") return utterance.indexOf(written);
  const lower = utterance.toLowerCase();
  const word = written.toLowerCase();
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const before = lower[at - 1] ?? " ";
    const after = lower[at + word.length] ?? " ";
    if (!isLatinLetter(before) && !isLatinLetter(after)) return at;
  }
  return -1;
}

const isLatinLetter = (c: string): boolean => c >= "a" && c <= "z";

/** The fact of one member: its slot, value and text (see the file header). */
export function memberFact(base: Fact, word: string, info: MemberInfo): Fact {
  if (info.name === undefined && info.age === undefined) return base;
  const relation = relationOf(base) ?? word;
  const ko = base.lang === "ko";
  const age = info.age === undefined ? "" : ko ? `, ${info.age}살` : `, ${info.age}`;
  const value = `${word}${info.name === undefined ? "" : ` ${info.name}`}${age}`;
  const key = info.name === undefined ? "" : `:${info.name.toLowerCase()}`;
  const id = clip(`family:${relation}${key}`, MAX_ID_CHARS);
  const text = ko ? `사용자의 가족(${value})` : `The user's family (${value})`;
  return { ...base, id, value, text };
}

/** Name and age of a stored member, read back from its value (kept per fact object). */
const INFO = new WeakMap<Fact, MemberInfo & { word: string }>();
function infoOf(fact: Fact): MemberInfo & { word: string } {
  let info = INFO.get(fact);
  if (info === undefined) {
    info = readInfo(fact);
    INFO.set(fact, info);
  }
  return info;
}

function readInfo(fact: Fact): MemberInfo & { word: string } {
  const m = /^(.+?)(?: ([^\s,]+))?(?:, (\d{1,3})살?)?$/.exec(fact.value);
  const named = memberKey(fact) !== undefined;
  return {
    word: named ? (m?.[1] ?? fact.value) : fact.value.replace(/, \d{1,3}살?$/, ""),
    name: named ? m?.[2] : undefined,
    age: m?.[3] === undefined ? undefined : Number(m[3]),
  };
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A newer age of a stored named member said by name, without the relation: "Leo turned 9",
 * "Leo is 9 now", "보리는 두 살 된 믹스견", "지유가 6살이 됐어요".
 */
function agedByName(member: Fact, utterance: string): number | undefined {
  const { name } = infoOf(member);
  if (name === undefined || !utterance.includes(name)) return undefined;
  if (member.lang === "ko") {
    const at = utterance.indexOf(name);
    return koAge(utterance.slice(at + name.length));
  }
  const m = agePattern(name).exec(utterance);
  return ageOf(m?.[1]);
}

/** The age pattern of one name, compiled once per name (names recur across turns). */
const AGE_PATTERNS = new Map<string, RegExp>();
function agePattern(name: string): RegExp {
  let found = AGE_PATTERNS.get(name);
  if (found !== undefined) return found;
  if (AGE_PATTERNS.size >= 200) AGE_PATTERNS.clear();
  found = new RegExp(
    `\\b${escapeRegex(name)}(?:'s|\\s+(?:just\\s+)?(?:turned|turns|is now|is|who's|who is))\\s+(?:now\\s+)?(\\d{1,2})\\b(?!\\s*(?:${NOT_AGE_UNITS}))`,
  );
  AGE_PATTERNS.set(name, found);
  return found;
}

/** A wedding: a boyfriend, girlfriend or fiancé becomes a spouse. */
const MARRIED_EN =
  /\b(?:we|i|[a-z]+ and i)\s+(?:just\s+|finally\s+|officially\s+)?got\s+married\b|\bi\s+married\b|\bwe(?:'re| are)\s+(?:now\s+)?married\b/i;
const MARRIED_KO = /결혼했|결혼식\s*(?:을\s*)?(?:\S+\s+)?(?:끝났|마쳤|올렸)|혼인\s*신고/;
const SPOUSE_OF: Readonly<Record<string, { relation: string; en: string; ko: string }>> = {
  boyfriend: { relation: "husband", en: "husband", ko: "남편" },
  girlfriend: { relation: "wife", en: "wife", ko: "아내" },
  fiance: { relation: "spouse", en: "spouse", ko: "배우자" },
  partner: { relation: "spouse", en: "spouse", ko: "배우자" },
};

/** The stored partners a wedding in the message makes spouses (same name, new relation). */
function married(members: readonly Fact[], utterance: string): { from: Fact; to: Fact }[] {
  const cue =
    utterance.includes("married") || utterance.includes("결혼") || utterance.includes("혼인");
  if (!cue || (!MARRIED_EN.test(utterance) && !MARRIED_KO.test(utterance))) return [];
  const out: { from: Fact; to: Fact }[] = [];
  for (const member of members) {
    const spouse = SPOUSE_OF[relationOf(member) ?? ""];
    if (spouse === undefined) continue;
    const info = infoOf(member);
    const base = { ...member, id: `family:${spouse.relation}` };
    const word = member.lang === "ko" ? spouse.ko : spouse.en;
    const to =
      info.name === undefined && info.age === undefined
        ? {
            ...base,
            value: word,
            text: member.lang === "ko" ? `사용자의 가족(${word})` : `The user's family (${word})`,
          }
        : memberFact(base, word, { name: info.name, age: info.age });
    out.push({ from: member, to });
  }
  return out;
}

/**
 * Member-level supersession for one message: the stored facts it revises and the facts it
 * states, before they are merged (merge.ts). Returns the stored facts to drop and the facts
 * to merge in their place.
 */
/** A message that opens by naming someone ("이름은 서연이에요", "Her name is Luna"). */
const NAMED_KO =
  /^\s*(?:이름은|이름이)\s*["']?([가-힣]{1,5}?)(?:이에요|예요|에요|이야|야|입니다|이고|이래요|래요)(?=$|[\s.!~,])/;
const NAMED_EN =
  /^\s*(?:(?:her|his|its|their)\s+name(?:'s|\s+is)|(?:she|he|it)(?:'s|\s+is)\s+(?:called|named)|we\s+(?:named|called)\s+(?:her|him|it))\s+([A-Z][a-z]+)\b/i;

/**
 * The name a message gives to the member the message before introduced without one
 * ("딸이 하나 있어요" | "이름은 서연이에요"), or undefined.
 */
function namedAfter(member: Fact | undefined, utterance: string): Fact | undefined {
  if (member === undefined || member.category !== "family" || memberKey(member) !== undefined)
    return undefined;
  const ko = NAMED_KO.exec(utterance);
  const name = ko !== null ? nameKo(ko[1]) : nameEn(NAMED_EN.exec(utterance)?.[1]);
  if (name === undefined) return undefined;
  const info = infoOf(member);
  return memberFact(member, info.word, { name, age: info.age });
}

export function reviseMembers(
  existing: readonly Fact[],
  incoming: readonly Fact[],
  utterance: string,
  after?: Fact,
): { remove: Fact[]; add: Fact[] } {
  const remove: Fact[] = [];
  const add: Fact[] = [];
  const members = existing.filter((f) => f.category === "family");
  if (members.length === 0) return { remove, add: [...incoming] };
  // "딸이 하나 있어요" | "이름은 서연이에요": the member just introduced gets the name.
  const renamed = incoming.some((f) => f.category === "family" || f.category === "name")
    ? undefined
    : namedAfter(after, utterance);
  if (renamed !== undefined && after !== undefined) {
    remove.push(after);
    add.push(renamed);
  }
  // "We got married", "결혼식 끝났어요": the partner is a spouse now.
  for (const { from, to } of married(members, utterance)) {
    remove.push(from);
    if (!incoming.some((f) => f.id === to.id)) add.push(to);
  }
  // "Leo turned 9": a named member's new age, said without the relation.
  for (const member of members) {
    if (incoming.some((f) => f.id === member.id)) continue;
    const age = agedByName(member, utterance);
    if (age === undefined) continue;
    const info = infoOf(member);
    if (info.age === age) continue;
    add.push(memberFact(member, info.word, { name: info.name, age }));
  }
  for (const fact of incoming) {
    const relation = relationOf(fact);
    if (relation === undefined) {
      add.push(fact);
      continue;
    }
    // "준호를 남편이라고 부르는": the same partner under a new relation (boyfriend → husband).
    const key = memberKey(fact);
    if (key !== undefined && PARTNERS.has(relation)) {
      for (const member of members) {
        const was = relationOf(member);
        if (
          memberKey(member) === key &&
          was !== relation &&
          was !== undefined &&
          PARTNERS.has(was)
        ) {
          remove.push(member);
        }
      }
    }
    // "He's my fiancé now!", "이제 와이프야": a partner at a later stage (boyfriend → fiancé
    // → spouse) is the earlier one, unless both are named and the names differ.
    const stage = PARTNER_STAGE[relation];
    if (stage !== undefined) {
      for (const member of members) {
        const was = relationOf(member);
        const before = was === undefined ? undefined : PARTNER_STAGE[was];
        const other =
          key !== undefined && memberKey(member) !== undefined && memberKey(member) !== key;
        if (before !== undefined && before < stage && !other && !remove.includes(member)) {
          remove.push(member);
        }
      }
    }
    const same = members.filter((m) => relationOf(m) === relation);
    if (same.length === 0) {
      add.push(fact);
      continue;
    }
    const info = infoOf(fact);
    const named = memberKey(fact) !== undefined;
    if (named) {
      // The unnamed member of the relation gets its name; its age stays unless a new one came.
      const unnamed = same.find((m) => memberKey(m) === undefined);
      if (unnamed !== undefined && same.length === 1) {
        remove.push(unnamed);
        const old = infoOf(unnamed);
        add.push(
          info.age === undefined && old.age !== undefined
            ? memberFact(fact, info.word, { name: info.name, age: old.age })
            : fact,
        );
        continue;
      }
      add.push(fact);
      continue;
    }
    // Nothing new about a member already known ("딸은 새 어린이집이 마음에 든대요").
    if (info.age === undefined) continue;
    // An age for the only member of the relation ("벌써 딸이 5살이 됐어요").
    if (same.length === 1) {
      const member = same[0] as Fact;
      const old = infoOf(member);
      if (old.age === info.age) continue;
      add.push(memberFact(member, old.word, { name: old.name, age: info.age }));
      continue;
    }
    add.push(fact);
  }
  return { remove, add };
}
