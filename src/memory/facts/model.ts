/**
 * The `llm` mode's contract (R8.1): the instruction a model gets and the validation of its
 * answer. Calling the model is the turn runner's job; when {@link parseModelFacts} throws
 * (`INPUT_INVALID`), the caller falls back to the heuristic extractor.
 */
import { z } from "zod";
import { LlamonError } from "../../errors.ts";
import { factText, tidyValue } from "./build.ts";
import { possessionKind, RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import {
  clip,
  FACT_CATEGORIES,
  type Fact,
  type FactCategory,
  factId,
  langOf,
  MAX_SOURCE_CHARS,
  MAX_TEXT_CHARS,
  MAX_VALUE_CHARS,
  SINGLE_VALUED,
  valueKey,
} from "./types.ts";

/** At most this many facts are taken from one model answer. */
export const MAX_MODEL_FACTS = 20;

export const FACT_EXTRACTION_PROMPT = `Extract durable facts about the user from the user's message (Korean or English).
Keep only what the user states about themselves or their family: name, where they live or come from, workplace, job, family members and pets, likes, dislikes, allergies and foods they cannot eat, health and diet, upcoming plans with dates, possessions (car, phone …), and other stable details (age, birthday, major).
Do not extract from questions, hypotheticals or wishes ("if I lived in Paris", "제주도에 살고 싶어요"), from statements about other people ("my friend lives in Busan"), or from past-only statements ("I used to live in Seoul").
A correction ("actually I moved to Busan", "이제 부산에 살아") is a new fact with the same category and key.
Answer with JSON only, no prose:
{"facts":[{"category":"name|residence|workplace|job|family|preference|dislike|allergy|health|plan|possession|other","value":"the key value, short, in the user's language","key":"optional sub-key: relation for family (wife, son, dog), kind for possession (car, phone), thing for preference/dislike/allergy/health/plan, age|birthday|major for other, hometown for a residence the user is from","text":"one sentence about the user in the user's language, e.g. 사용자는 부산에 산다 / The user lives in Busan","lang":"ko|en"}]}
If there is nothing worth keeping, answer {"facts":[]}.`;

const modelFactSchema = z.object({
  category: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(FACT_CATEGORIES),
  ),
  value: z
    .string()
    .transform((value) => tidyValue(value))
    .pipe(
      z
        .string()
        .min(1)
        .max(MAX_VALUE_CHARS * 2),
    ),
  key: z.string().max(80).optional().nullable().catch(undefined),
  text: z
    .string()
    .max(MAX_TEXT_CHARS * 2)
    .optional()
    .nullable()
    .catch(undefined),
  lang: z.enum(["ko", "en"]).optional().nullable().catch(undefined),
});

const answerSchema = z.union([z.object({ facts: z.array(z.unknown()) }), z.array(z.unknown())]);

function invalid(message: string, cause?: unknown): LlamonError {
  return new LlamonError("INPUT_INVALID", `model fact answer: ${message}`, {
    cause,
    details: { source: "facts_llm" },
  });
}

/** LangChain message content may be a list of blocks: [{ type: "text", text }]. */
function contentText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const texts: string[] = [];
  for (const block of value) {
    if (typeof block !== "object" || block === null) return undefined;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type !== "text" || typeof text !== "string") return undefined;
    texts.push(text);
  }
  return texts.join("");
}

function decode(input: unknown): unknown {
  const json = contentText(input) ?? input;
  if (typeof json !== "string") return json;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(json);
  const body = (fenced?.[1] ?? json).trim();
  const start = body.search(/[[{]/);
  if (start < 0) throw invalid("no JSON object in the answer");
  try {
    return JSON.parse(body.slice(start));
  } catch (error) {
    throw invalid("the answer is not valid JSON", error);
  }
}

function subKey(
  category: FactCategory,
  value: string,
  key: string | undefined,
): string | undefined {
  const raw = (key ?? "").trim().toLowerCase();
  if (SINGLE_VALUED.has(category)) {
    if (category === "residence" && /home\s*town|hometown|origin|from|고향|출신/.test(raw))
      return "hometown";
    if (category === "workplace" && /location|위치/.test(raw)) return "location";
    return undefined;
  }
  if (category === "family") {
    const word = raw === "" ? value.toLowerCase() : raw;
    return RELATIONS_EN[word] ?? RELATIONS_KO[word] ?? (valueKey(word) || undefined);
  }
  if (category === "possession")
    return possessionKind(raw === "" ? value : raw) ?? (valueKey(raw) || undefined);
  if (category === "preference" && raw.startsWith("favorite:")) {
    return `favorite:${valueKey(raw.slice("favorite:".length))}`;
  }
  if (category === "other" && /^(?:age|birthday|major|nationality|mbti|living)$/.test(raw))
    return raw;
  return raw === "" ? undefined : valueKey(raw) || undefined;
}

/**
 * The facts of a model's answer (an object, an array, the raw text with optional ```json
 * fences, or LangChain content blocks `[{ type: "text", text }]` holding that text). Invalid entries are skipped; throws `LlamonError("INPUT_INVALID")` when
 * the answer is not JSON of the expected shape or every entry is invalid.
 */
export function parseModelFacts(json: unknown, source: string): Fact[] {
  const decoded = decode(json);
  const answer = answerSchema.safeParse(decoded);
  if (!answer.success) throw invalid('expected {"facts": [...]}', answer.error);
  const list = Array.isArray(answer.data) ? answer.data : answer.data.facts;
  const origin = clip(typeof source === "string" ? source.trim() : "", MAX_SOURCE_CHARS);
  const byId = new Map<string, Fact>();
  let valid = 0;
  for (const entry of list.slice(0, MAX_MODEL_FACTS)) {
    const parsed = modelFactSchema.safeParse(entry);
    if (!parsed.success) continue;
    valid++;
    const { category } = parsed.data;
    const value = clip(parsed.data.value, MAX_VALUE_CHARS);
    const written = parsed.data.text?.trim() ?? "";
    const lang = parsed.data.lang ?? langOf(`${value} ${written}`);
    const key = subKey(category, value, parsed.data.key ?? undefined);
    const text =
      written !== ""
        ? clip(written, MAX_TEXT_CHARS)
        : factText({
            category,
            value,
            lang,
            key,
            form: key === "hometown" ? "hometown" : key === "location" ? "location" : undefined,
            detail: origin || value,
          });
    const fact: Fact = {
      id: factId(category, value, key),
      category,
      text,
      value,
      lang,
      source: origin,
    };
    byId.delete(fact.id);
    byId.set(fact.id, fact);
  }
  if (list.length > 0 && valid === 0) throw invalid("no entry has a valid category and value");
  return [...byId.values()];
}
