/**
 * Precision before recall (R8.2): a value is stored only when it fits its slot, and a
 * request states nothing. When a check is unsure it refuses: conversation recall still has
 * the message.
 *
 * - A request ("Suggest activities that fit my children's ages", "4살 아이랑 갈 만한 곳
 *   추천해 주세요") asks for something; what it mentions is not a fact, and it must never
 *   replace one.
 * - A name is name-like: not an occupation, a relation or a role ("저는 원장이에요",
 *   "저는 워킹맘이에요").
 * - A job is an occupation, not an evaluation of it ("My job is stressful").
 * - A Korean value never ends in a particle that leaves it a fragment of a clause
 *   ("냄새부터 싫어요" is about the smell of the thing, not a dislike of "냄새부터").
 * - A thing the user has, likes or dislikes is a thing, not a verb phrase ("I have been
 *   learning guitar" is not a possession "been learning guitar").
 * - "애들"/"아이들" without 우리/제/저희/내 and without a verb of having or raising is not the
 *   user's family (a teacher's "오늘 애들이 너무 시끄러워서").
 *
 * Word lists, not expressions: nothing to compile in a fresh isolate.
 */
import { hostileText } from "./hostile.ts";
import { JOBS_KO, RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import { slotOf } from "./slots.ts";
import type { Fact } from "./types.ts";

const REQUEST_START_EN = [
  "suggest",
  "recommend",
  "help",
  "give",
  "tell",
  "plan",
  "find",
  "write",
  "list",
  "show",
  "draft",
  "remind",
  "create",
  "pick",
  "book",
  "brainstorm",
  "compare",
];
const REQUEST_LEAD_EN = new Set(["please", "pls", "ok", "okay", "so", "hey", "now", "then", "and"]);
const REQUEST_ANY_EN = [
  "can you ",
  "could you ",
  "would you ",
  "will you ",
  "any ideas",
  "any tips",
  "any advice",
  "any suggestions",
  "any recommendations",
  "what are some ",
];
const REQUEST_END_KO = [
  "주세요",
  "줘",
  "줘요",
  "줄래",
  "줄래요",
  "주실래요",
  "주시겠어요",
  "주시겠습니까",
  "부탁해요",
  "부탁합니다",
  "부탁드려요",
  "부탁드립니다",
];
/** "민지라고 불러 주세요" states how the user wants to be called: not a request to drop. */
const NAMING_KO = ["불러", "라고 해", "이라고 해"];

/** Asking the assistant to remember states the fact it names ("기억해 주세요, 저 비건이에요"). */
const REMEMBER = [
  "remember",
  "keep in mind",
  "note that",
  "기억해",
  "기억하",
  "알아 둬",
  "알아둬",
  "알아 두",
];

/** A clause that asks the assistant for something (see the file header). */
export function isRequest(text: string): boolean {
  const clause = text.trim().toLowerCase();
  if (clause === "" || !asks(clause)) return false;
  return !REMEMBER.some((phrase) => clause.includes(phrase));
}

/** The clause has the form of a request (isRequest adds the remember exception). */
function asks(clause: string): boolean {
  const words = clause.split(/\s+/, 6);
  let first = 0;
  while (first < words.length - 1 && REQUEST_LEAD_EN.has(words[first] ?? "")) first++;
  const head = (words[first] ?? "").replace(/[^a-z]/g, "");
  if (REQUEST_START_EN.includes(head)) return true;
  const cue = clause.includes("you") || clause.includes("any ") || clause.includes("some ");
  if (cue && REQUEST_ANY_EN.some((phrase) => clause.includes(phrase))) return true;
  if (!clause.includes("주") && !clause.includes("줘") && !clause.includes("줄")) {
    if (!clause.includes("부탁")) return false;
  }
  const end = clause.replace(/[\s.!~?ㅎㅋ^]+$/, "");
  if (REQUEST_END_KO.some((ending) => end.endsWith(ending))) {
    return !NAMING_KO.some((naming) => end.includes(naming));
  }
  return false;
}

/**
 * A noun phrase with no verb of its own ("my kids", "우리 애들"): after a request it is still
 * part of what is asked.
 */
export function isBarePhrase(text: string): boolean {
  const words = text.trim().toLowerCase().split(/\s+/);
  return words.length <= 3 && ["my", "our", "우리", "제", "저희"].includes(words[0] ?? "");
}

/** Words that judge a job rather than name it. */
const EVALUATIONS_EN = new Set([
  "stressful",
  "busy",
  "hard",
  "tough",
  "boring",
  "tiring",
  "exhausting",
  "draining",
  "demanding",
  "hectic",
  "crazy",
  "insane",
  "intense",
  "chaotic",
  "fun",
  "great",
  "good",
  "bad",
  "fine",
  "ok",
  "okay",
  "awful",
  "terrible",
  "rewarding",
  "easy",
  "amazing",
  "killing",
  "overwhelming",
  "fulfilling",
  "brutal",
  "nuts",
]);
const EVALUATIONS_KO = [
  "스트레스",
  "힘들",
  "힘듦",
  "바빠",
  "바쁘",
  "피곤",
  "지겨",
  "지루",
  "재밌",
  "재미있",
];

/** Korean particles after which a value is a fragment of a clause. */
const FRAGMENT_PARTICLES_KO = [
  "부터",
  "까지",
  "조차",
  "마저",
  "밖에",
  "처럼",
  "보다",
  "에서",
  "으로",
  "한테",
];

/** Verb forms that start a phrase, not a thing one has (a liked activity may start so). */
const VERB_LEAD_EN = new Set([
  "been",
  "being",
  "getting",
  "gotten",
  "learning",
  "trying",
  "doing",
  "going",
  "started",
  "starting",
]);

const POSSESSIVE_KO = ["우리", "제 ", "저희", "내 ", "울 ", "제가", "내가", "저는", "나는"];
const HAVING_KO = [
  "있어",
  "있습",
  "있는",
  "있고",
  "있음",
  "키우",
  "키워",
  "낳",
  "둘",
  "셋",
  "하나",
  "명",
];
const BARE_CHILDREN_KO = new Set(["애들", "아이들", "애", "얘들", "애기들"]);

/** Korean roles said like a name ("저는 워킹맘이에요", "싱글대디예요"). */
const ROLE_ENDS_KO = ["맘", "대디", "파파"];

/** A name is name-like: not an occupation, a relation or a role ("저는 원장이에요"). */
function fitsName(value: string, lower: string, lang: string): boolean {
  if (lang === "ko") {
    if (JOBS_KO.has(value) || RELATIONS_KO[value] !== undefined) return false;
    return !ROLE_ENDS_KO.some((end) => value.endsWith(end) && value.length > end.length);
  }
  // Capitalised English job words are names too often ("I'm Hunter", "Mason here").
  return RELATIONS_EN[lower] === undefined;
}

const lastWord = (value: string): string => value.trim().split(/\s+/).at(-1) ?? "";

/**
 * Whether a fact's value fits the shape its slot row names (slots.ts), given the clause it
 * came from (see the header).
 */
export function fitsSlot(fact: Fact, clause: string): boolean {
  const value = fact.value.trim();
  // The text shown may quote the clause (a family member's detail): it is checked too, with
  // its ordinary spaces and line breaks as one space.
  if (hostileText(value) !== undefined) return false;
  if (hostileText(fact.text.replace(/\s+/g, " ")) !== undefined) return false;
  const lower = value.toLowerCase();
  switch (slotOf(fact.category).shape) {
    case "name":
      return fitsName(value, lower, fact.lang);
    case "occupation": {
      if (fact.lang === "ko") return !EVALUATIONS_KO.some((word) => value.includes(word));
      const last = lastWord(lower);
      return !EVALUATIONS_EN.has(last) && !last.endsWith("ful");
    }
    case "member": {
      if (fact.lang !== "ko" || !BARE_CHILDREN_KO.has(value)) return true;
      const text = ` ${clause} `;
      return (
        POSSESSIVE_KO.some((word) => text.includes(` ${word}`)) ||
        HAVING_KO.some((word) => text.includes(word))
      );
    }
    case "thing": {
      const lead = lower.split(/\s+/)[0] ?? "";
      if (fact.category === "possession" ? VERB_LEAD_EN.has(lead) : lead === "been") return false;
      if (fact.lang !== "ko") return true;
      const last = lastWord(value);
      return !FRAGMENT_PARTICLES_KO.some(
        (particle) => last.endsWith(particle) && last.length > particle.length,
      );
    }
    default:
      return true;
  }
}
