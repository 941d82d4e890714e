/**
 * A clause that leaves out what it is about, inside one utterance: "But sushi is an
 * exception, I love it" (it = sushi), "예전에는 술을 많이 마셨는데 요즘은 끊었어요" (끊었어요 =
 * quit 술). The rules read one clause at a time, so such a clause states nothing by
 * itself. When it gives no fact, extract.ts tries it once more with the previous clause's
 * topic put in ({@link filledClause}); nothing is resolved across utterances.
 *
 * - The topic of an English clause is its subject noun phrase before is/are/was ("sushi
 *   is an exception"); "my car is old" is not a topic (a possession, not a taste), and
 *   neither is a pronoun. It fills the first "it" / "them" of the next clause.
 * - The topic of a Korean clause is its last object (술을, 닭가슴살을), else its first
 *   topic or subject noun (커피는, 민트초코가), time words (요즘은) and the speaker (저는)
 *   not counted. It fills a short next clause (at most four words) that has no noun of
 *   its own with a particle: "요즘은 끊었어요" → "요즘은 술을 끊었어요".
 */
import { isContentWord, splitParticle, tokensOf } from "./korean.ts";
import { pattern } from "./regex.ts";
import { hasHangul, josa } from "./types.ts";

const EN_TOPIC = pattern(
  String.raw`^(?:the\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)\s+(?:is|are|was|were)\b`,
  "i",
  "are|is|was|were",
);
/** First words of a subject that is no topic: pronouns, possessives ("my car"), time. */
const EN_NOT_TOPIC: ReadonlySet<string> = new Set(
  "it this that these those there here he she they we you i what which who my our your his her their everything something nothing today tonight tomorrow yesterday life work".split(
    " ",
  ),
);

const EN_PRONOUN = pattern(String.raw`\b(?:it|them)\b`, "i", "it|them");

const OBJECT_PARTICLES = ["을", "를"];
const TOPIC_PARTICLES = ["은", "는", "이", "가"];
const ALL_PARTICLES = [...OBJECT_PARTICLES, ...TOPIC_PARTICLES];

/** A Korean noun the clause marks with one of `particles` (not a time word or the speaker). */
function markedNouns(tokens: readonly string[], particles: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const [stem, particle] = splitParticle(token, particles);
    if (particle !== "" && isContentWord(stem)) out.push(stem);
  }
  return out;
}

/** What a clause is about, for the next clause to refer to (see the file header). */
export function topicOf(clause: string): string | undefined {
  if (hasHangul(clause)) {
    const tokens = tokensOf(clause);
    return markedNouns(tokens, OBJECT_PARTICLES).at(-1) ?? markedNouns(tokens, TOPIC_PARTICLES)[0];
  }
  const match = EN_TOPIC.exec(clause);
  const topic = match?.[1];
  if (topic === undefined || EN_NOT_TOPIC.has(topic.split(" ")[0]?.toLowerCase() ?? "")) {
    return undefined;
  }
  return topic;
}

/** The clause with `topic` put where it left it out, or undefined when it left nothing out. */
export function filledClause(clause: string, topic: string): string | undefined {
  if (hasHangul(clause) !== hasHangul(topic)) return undefined;
  if (hasHangul(clause)) {
    const tokens = tokensOf(clause);
    if (tokens.length === 0 || tokens.length > 4) return undefined;
    if (markedNouns(tokens, ALL_PARTICLES).length > 0) return undefined;
    const last = tokens.length - 1;
    return [...tokens.slice(0, last), josa(topic, "을", "를"), tokens[last]].join(" ");
  }
  if (!EN_PRONOUN.test(clause)) return undefined;
  return EN_PRONOUN.replace(clause, topic);
}
