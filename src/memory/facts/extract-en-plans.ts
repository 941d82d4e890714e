/**
 * English rules for what the user plans, owns and the rest (extract-en.ts): trips and
 * events, possessions and other facts.
 */

import { WORKPLACE_RE7 } from "./extract-en-profile.ts";
import {
  after,
  CUT_RE1,
  cut,
  type Found,
  I_AM,
  PLACE_STOP,
  relationOf,
  usable,
} from "./extract-en-shared.ts";
import { open } from "./gates.ts";
import { languageCode } from "./languages.ts";
import { CONDITIONS_EN, EVENTS_EN, NATIONALITIES, possessionKind, TIME_EN } from "./lexicon.ts";
import { pattern } from "./regex.ts";

/** Words TIME_EN needs (besides a digit): its large expression runs only behind them. */
const TIME_GATE = `tomorrow tonight today next this soon later holiday christmas day week month
  year spring summer fall autumn winter evening afternoon morning monday tuesday wednesday
  thursday friday saturday sunday january february march april may june july august september
  october november december`.split(/\s+/);

/** What every event pattern needs: one of the event words. */
const EVENT_NEED =
  "appointment|audition|ceremony|check-up|checkup|class|concert|conference|date|deadline|dinner|exam|flight|game|graduation|hearing|hike|holiday|interview|lesson|lunch|marathon|match|meeting|move|operation|party|performance|presentation|race|recital|reservation|reunion|show|surgery|test|tournament|trip|vacation|visit|wedding";

const EVENT_WORDS = pattern(`\\b(?:${EVENTS_EN})\\b`, "i", EVENT_NEED);

/** Plan verbs whose object alone names the plan ("visiting Tokyo" → Tokyo). */
const OBJECT_ONLY = pattern(
  "^(?:visiting|renovating|expecting|attending|adopting|buying|getting|picking up|training for|preparing for|studying for|competing in|flying out for)$",
  "",
  "adopting|attending|buying|competing in|expecting|flying out for|getting|picking up|preparing for|renovating|studying for|training for|visiting",
);

const PLANS_RE1 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:going|heading|flying|driving|traveling|travelling|moving|off|taking a trip|going on a trip|taking the kids)\s+to\s+`,
  "gi",
  "driving|flying|going|heading|moving|off|taking a trip|taking the kids|traveling|travelling&'m|'re|am|are&to",
);
const PLANS_RE2 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+going\s+(camping|hiking|skiing|fishing|surfing|shopping|backpacking|diving)\b(?:\s+(?:in|at|to)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*))?`,
  "gi",
  "backpacking|camping|diving|fishing|hiking|shopping|skiing|surfing&going&'m|'re|am|are",
);
const PLANS_RE3 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(visiting|attending|hosting|renovating|expecting|running|starting|getting married|having|adopting|buying|getting|picking up|launching|opening|training for|preparing for|studying for|competing in|flying out for)\b\s*([^,.;!?]*)`,
  "gi",
  "adopting|attending|buying|competing in|expecting|flying out for|getting|having|hosting|launching|opening|picking up|preparing for|renovating|running|starting|studying for|training for|visiting&'m|'re|am|are",
);
const PLANS_RE4 = pattern(
  `\\b(?:i|we)\\s+(?:have|'ve got|have got|got)\\s+(?:a|an|my|our)\\s+((?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\b`,
  "gi",
  `${EVENT_NEED}&got|have`,
);
const PLANS_RE5 = pattern(
  String.raw`\b(?:i|we)(?:'ll|\s+will)\s+be\s+(?:in|at|visiting)\s+([^,.;!?]+)`,
  "gi",
  "'ll|will&be&at|in",
);
const PLANS_RE6 = pattern(
  `\\bmy\\s+((?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\s+is\\s+(?:on|at|next|this|tomorrow|in|coming up|scheduled|tonight|today)\\b`,
  "gi",
  `${EVENT_NEED}&my`,
);
const PLANS_RE7 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:planning|plan|scheduled|booked|set)\s+to\s+`,
  "gi",
  "booked|plan|scheduled|set&to",
);

const PLANS_RE8 = pattern(String.raw`\d`);
const PLANS_RE9 = pattern(
  String.raw`\b(?:planning|plan|scheduled|booked)\s+to\b`,
  "i",
  "booked|plan|scheduled&to",
);
const PLANS_RE10 = pattern("baby|party", "i", "baby|party");

/** Words that end a plan value. */
const PLAN_STOP = pattern(
  String.raw`\s+(?:tomorrow|tonight|today|next|this|on|in|at|for|with|soon|later|after|before|and|but|because|so|since|during|over|by)\b|[,;!?()"]|\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|.|;|?|after|and|at|because|but|by|for|in|next|on|over|so|this|today|tomorrow|with',
);

const PLANS_RE11 = pattern(String.raw`^(?:our|my|the|a|an)\s+`, "i", "a|my|our|the");

export function plans(text: string): Found {
  const out: Found = [];
  const lower = text.toLowerCase();
  const timed = (PLANS_RE8.test(lower) || open(TIME_GATE, lower)) && TIME_EN.test(text);
  const explicit =
    (lower.includes("plan") || lower.includes("schedul") || lower.includes("book")) &&
    PLANS_RE9.test(text);
  const add = (value: string): void => {
    const clean = PLANS_RE11.replace(value, "").trim();
    if (usable(clean)) out.push({ category: "plan", value: clean, lang: "en", detail: text });
  };
  if (timed) {
    for (const { rest } of after(text, PLANS_RE1)) {
      add(cut(rest, PLAN_STOP, 5));
    }
    for (const m of PLANS_RE2.all(text)) {
      add(m[2] === undefined ? (m[1] ?? "") : `${m[1]} in ${m[2]}`);
    }
    for (const m of PLANS_RE3.all(text)) {
      const verb = (m[1] ?? "").toLowerCase();
      const object = cut(m[2] ?? "", PLAN_STOP, 4);
      if (verb === "getting married") add("wedding");
      else if (verb === "having" && !EVENT_WORDS.test(object) && !PLANS_RE10.test(object)) continue;
      else if (object === "") add(verb);
      else add(OBJECT_ONLY.test(verb) ? object : `${verb} ${object}`);
    }
    for (const m of PLANS_RE4.all(text)) {
      add(m[1] ?? "");
    }
    for (const m of PLANS_RE5.all(text)) {
      add(cut(m[1] ?? "", PLAN_STOP, 4));
    }
  }
  for (const m of PLANS_RE6.all(text)) {
    add(m[1] ?? "");
  }
  if (explicit) {
    for (const { rest } of after(text, PLANS_RE7)) {
      add(cut(rest, PLAN_STOP, 5));
    }
  }
  return out;
}

const POSSESSIONS_RE1 = pattern(
  String.raw`\b(?:i|we)\s+(?:also\s+|still\s+|now\s+|do\s+|just\s+|recently\s+|finally\s+)*(?:have|own|drive|ride|use|got|bought|picked up|'ve got|have got|am driving|'m driving)\s+(?:(?:an|a|the|my|two|\d+)\s+)?(?:new\s+|used\s+|old\s+|brand[- ]new\s+|second-hand\s+|little\s+)?`,
  "gi",
  "'m driving|am driving|bought|drive|got|have|own|picked up|ride|use",
);
const POSSESSIONS_RE2 = pattern(
  `^(?:${CONDITIONS_EN})$`,
  "i",
  "a bad back|a bad knee|a heart condition|a herniated disc|acid reflux|adhd|allergies|anemia|anxiety|arthritis|asthma|autism|back pain|cancer|celiac|chronic pain|crohn's|depression|diabetes|dyslexia|eczema|epilepsy|fibromyalgia|gerd|glaucoma|gluten intolerance|gout|heart disease|high blood pressure|high cholesterol|hypertension|hypothyroidism|ibs|insomnia|lactose intolerance|long covid|low blood pressure|lupus|migraine|ms|multiple sclerosis|pcos|psoriasis|scoliosis|sleep apnea|thyroid issues|tinnitus",
);
const POSSESSIONS_RE3 = pattern(
  String.raw`\bmy\s+(car|phone|laptop|computer|bike|tablet|camera|watch|ride|cell|mobile)\s+is\s+(?:a\s+|an\s+)?([^,.;!?]+)`,
  "gi",
  "bike|camera|car|cell|computer|laptop|mobile|phone|ride|tablet|watch&is&my",
);

const POSSESSIONS_RE4 = pattern(
  String.raw`\b(drive|ride|own|bought|picked up|am driving)\s+(?:\S+\s+){0,2}$`,
  "i",
  "am driving|bought|drive|own|picked up|ride",
);
const POSSESSIONS_RE5 = pattern("drive|driving", "", "drive|driving");

export function possessions(text: string): Found {
  const out: Found = [];
  for (const { rest } of after(text, POSSESSIONS_RE1)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (!usable(value) || relationOf(CUT_RE1.split(value).at(-1) ?? "") !== undefined) continue;
    if (EVENT_WORDS.test(value) || POSSESSIONS_RE2.test(value)) continue;
    // "I picked up Spanish": a language (languages.ts), not a thing.
    if (languageCode(value) !== undefined) continue;
    // "I drive a Vespa" / "I own a Leica": a brand after drive/ride/own is a possession.
    const lead = text.slice(0, text.length - rest.length);
    const verb = POSSESSIONS_RE4.exec(lead)?.[1]?.toLowerCase();
    const brand = verb !== undefined && WORKPLACE_RE7.test(value);
    const kind =
      possessionKind(value) ?? (brand && POSSESSIONS_RE5.test(verb ?? "") ? "car" : undefined);
    if (kind === undefined && !brand) continue;
    out.push({ category: "possession", value, lang: "en", key: kind });
  }
  for (const m of POSSESSIONS_RE3.all(text)) {
    const value = cut(m[2] ?? "", PLACE_STOP, 4);
    if (!usable(value)) continue;
    const kind = possessionKind(m[1] ?? "") ?? possessionKind(value);
    out.push({ category: "possession", value, lang: "en", key: kind });
  }
  return out;
}

const OTHER_RE1 = pattern(
  `\\b${I_AM}\\s+(\\d{1,3})(?:\\s*(?:years?\\s*old|yrs?\\s*old|y\\/o|yo))?(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|years?|yrs?|y\\/o|yo|now)\\b)`,
  "i",
  "i am|i'm|im",
);
const OTHER_RE2 = pattern(String.raw`\bmy\s+birthday\s+is\s+(?:on\s+)?`, "gi", "birthday&is&my");
const OTHER_RE3 = pattern(
  `\\b${I_AM}\\s+(?:originally\\s+|half\\s+|also\\s+|proudly\\s+)?([A-Za-z]+)(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|btw)\\b)`,
  "i",
  "i am|i'm|im",
);
const OTHER_RE4 = pattern(
  String.raw`\b(?:i\s+major|i'm\s+majoring|i\s+am\s+majoring|im\s+majoring)\s+in\s+|\bmy\s+major\s+is\s+`,
  "gi",
  "major",
);

const OTHER_RE5 = pattern(String.raw`\bi\s+(?:just\s+)?turned\s+(\d{1,3})\b`, "i", "turned");
const OTHER_RE6 = pattern(String.raw`\bmy\s+age\s+is\s+(\d{1,3})\b`, "i", "age&is&my");
const OTHER_RE7 = pattern(
  String.raw`\s+(?:so|and|but|btw)\b|[,;!?]|\.(?=\s|$)`,
  "i",
  "!|,|.|;|?|and|btw|but|so",
);
const OTHER_RE8 = pattern(String.raw`\bi\s+was\s+born\s+on\s+([^,.;!?]+)`, "i", "born&was&on");

export function other(text: string): Found {
  const out: Found = [];
  const age = OTHER_RE1.exec(text) ?? OTHER_RE5.exec(text) ?? OTHER_RE6.exec(text);
  if (age !== null) {
    out.push({ category: "other", value: age[1] ?? "", lang: "en", key: "age", slot: "age" });
  }
  for (const { rest } of after(text, OTHER_RE2)) {
    const value = cut(rest, OTHER_RE7, 4);
    if (usable(value)) {
      out.push({ category: "other", value, lang: "en", key: "birthday", slot: "birthday" });
    }
  }
  const born = OTHER_RE8.exec(text);
  if (born !== null) {
    out.push({
      category: "other",
      value: (born[1] ?? "").trim(),
      lang: "en",
      key: "birthday",
      slot: "birthday",
    });
  }
  const nationality = OTHER_RE3.exec(text);
  const national = NATIONALITIES[(nationality?.[1] ?? "").toLowerCase()];
  if (national !== undefined) {
    out.push({
      category: "other",
      value: national,
      lang: "en",
      key: "nationality",
      slot: "nationality",
    });
  }
  for (const { rest } of after(text, OTHER_RE4)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value))
      out.push({ category: "other", value, lang: "en", key: "major", slot: "major" });
  }
  return out;
}
