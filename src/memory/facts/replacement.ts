/**
 * The new value of a slot the same message ended (R8.3): "Moved over from Target to Costco",
 * "left Deloitte, I'm at KPMG now", "쿠팡 일 그만두고 마켓컬리로 옮겼어요", "대구 생활
 * 정리하고 제주도로 내려왔어요". Once a cue has retired the workplace or the home
 * (retraction-cues.ts), a name after the words that say where to is that slot's new value;
 * once it has retired a taste, what the message says took its place is a taste ("Lately ramen
 * has replaced sushi as my favorite", "these days it's all Phoebe Bridgers for me", "커피
 * 끊었어 … 대신 보리차 마셔"), in the same favourite slot when the old one had one.
 *
 * The retirement is the context that makes so loose a reading safe: without it nothing here
 * is read, and a slot the extraction rows already gave a new value is left to them. The value
 * must still fit its slot (fit.ts) and may not be the value just retired.
 */
import { type Candidate, toFact } from "./build.ts";
import { fitsSlot } from "./fit.ts";
import { WAYS_OF_EATING_EN, WAYS_OF_EATING_KO } from "./lexicon.ts";
import { statementsOf } from "./retraction-cues.ts";
import type { Fact, FactCategory } from "./types.ts";
import { valueKey } from "./types.ts";

interface ReplacementRow {
  readonly lang: "ko" | "en";
  readonly slot: Extract<
    FactCategory,
    "workplace" | "residence" | "preference" | "job" | "health" | "plan"
  >;
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
    pattern: new RegExp(String.raw`\b(?:at|for|joined|called|named)\s+${NAME_EN}`, "g"),
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
  {
    // "당분간 본가에 얹혀살려고", "지금은 언니네서 지내요".
    lang: "ko",
    slot: "residence",
    pattern: new RegExp(String.raw`${WORD_KO}(?:에서|에|서)\s*(?:얹혀\s*)?(?:살|지내)`, "g"),
  },
  // The job: "left teaching. I'm doing instructional design now".
  {
    lang: "en",
    slot: "job",
    pattern:
      /\b(?:i'm|i am|im)\s+(?:now\s+)?doing\s+(?<value>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:now|these days|full[- ]time|instead)\b/gi,
  },
  // A way of eating ended, and the one named with it ("started eating fish again, so
  // pescatarian I guess").
  {
    lang: "en",
    slot: "health",
    pattern: new RegExp(`\\b(?<value>${WAYS_OF_EATING_EN})\\b`, "gi"),
  },
  {
    lang: "ko",
    slot: "health",
    pattern: new RegExp(`(?<value>${WAYS_OF_EATING_KO})`, "g"),
  },
  // A plan given up and the one that took its place ("Not doing the marathon anymore … Gonna
  // aim for a half marathon in the autumn instead").
  {
    lang: "en",
    slot: "plan",
    pattern:
      /\b(?:aim(?:ing)? for|going for|go for|signing up for|switching to|doing)\s+(?:a|an|the)\s+(?<value>[\w'-]+(?:\s+[\w'-]+){0,4}?)\s+instead\b/gi,
  },
  // Tastes: what took the old one's place.
  {
    lang: "en",
    slot: "preference",
    pattern:
      /(?:^|[.!,;]\s*|\b(?:lately|now|these days|nowadays)\s+)(?<value>[\w'-]+(?:\s+[\w'-]+)?)\s+(?:has|have)\s+replaced\b|\breplaced\s+(?:it|them|\w+)\s+with\s+(?<value2>[\w'-]+(?:\s+[\w'-]+)?)|\b(?:it's|its)\s+all\s+(?<value3>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:for me|now|these days|lately)\b|\b(?:i'm|i am)\s+(?:really\s+|more\s+)?into\s+(?<value4>[\w'-]+(?:\s+[\w'-]+)?)\s+(?:now|instead|these days|lately)\b|\b(?:obsessed with|hooked on|addicted to)\s+(?<value5>(?:the\s+)?[\w'-]+(?:\s+[\w'-]+)?)\s+(?:now|instead|these days|lately)\b/gi,
  },
  {
    lang: "ko",
    slot: "preference",
    pattern: new RegExp(
      String.raw`대신\s*(?:요즘은?\s*|이제는?\s*)?${WORD_KO}(?:을|를|만|이랑)?(?=\s)\s*(?:\S+\s+)?(?:마셔|마시|먹어|먹고|해요|해|하고|들어|봐요|즐겨)|(?:요즘은?|이제는?|요샌)\s*${WORD_KO.replace("value", "value2")}(?:에|이|가|만|을|를)?\s*(?:빠졌|꽂혔|푹\s*빠)`,
      "g",
    ),
  },
];

/** Words that follow "to/at/in" with a capital and name no place of work or home. */
const NOT_A_NAME_EN =
  /^(?:I|I'm|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter|Thanksgiving|Zoom|Slack|Google Meet)\b/;
/** When-words before a value ("Lately ramen has replaced …"). */
const LEAD_EN = /^(?:lately|now|these days|nowadays|honestly|so|and)\s+/i;
/** Words a "what took its place" reading can catch that are no taste. */
const NOT_A_TASTE =
  /^(?:it|them|that|this|something|nothing|everything|me|my|the|a|an|i|그거|이거|저거|다른\S*|뭐)$/i;
/** A "where to" that names nothing ("여기로 왔어요"). */
const NOT_A_NAME_KO = /^(?:여기|거기|저기|이곳|그곳|저곳|어디|집|회사|직장|다른\S*|새|딴)$/;

/**
 * The facts that replace the ended slots, read from the statements of the message that ended
 * them (retraction-cues.ts `statementsOf`: "I left Boston. Should I move to Denver?" and
 * "… If I moved to Denver I'd …" say nothing of Denver).
 * `ended` are the facts a cue retired; `kept` the facts the message's own rows gave (a kind
 * there is not read again).
 */
export function replacementsOf(
  message: string,
  ended: readonly Fact[],
  kept: readonly Fact[],
): Fact[] {
  const out: Fact[] = [];
  if (ended.length === 0) return out;
  const utterance = statementsOf(message.slice(0, 2000)).join(". ");
  for (const old of ended) {
    const taste = old.category === "preference" || old.category === "plan";
    const diet = old.id === "health:diet";
    if (!taste && !diet && old.id !== old.category) continue;
    if (kept.some((fact) => fact.category === old.category)) continue;
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
  for (const match of utterance.matchAll(row.pattern)) {
    const groups = match.groups ?? {};
    const value = (
      groups.value ??
      groups.value2 ??
      groups.value3 ??
      groups.value4 ??
      groups.value5 ??
      ""
    )
      .trim()
      .replace(LEAD_EN, "");
    if (value === "") continue;
    if (row.lang === "en" ? NOT_A_NAME_EN.test(value) : NOT_A_NAME_KO.test(value)) continue;
    const key = valueKey(value);
    if (key === "" || key === oldKey || oldKey.includes(key) || key.includes(oldKey)) continue;
    if (row.slot === "preference" && NOT_A_TASTE.test(value)) continue;
    const candidate: Candidate = { category: row.slot, value, lang: row.lang };
    if (row.slot === "health") candidate.key = "diet";
    // A favourite stays in its slot: "preference:favorite:band" → the new band.
    const favorite = /^preference:(favorite:(.+))$/.exec(old.id);
    if (favorite !== null) {
      candidate.key = favorite[1];
      candidate.form = "favorite";
      candidate.slot = favorite[2];
    }
    const fact = toFact(candidate, utterance, old.turn);
    if (fitsSlot(fact, utterance)) return fact;
  }
  return undefined;
}
