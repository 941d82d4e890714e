/**
 * Facts in persistent_memory (R8.2): stored under the thread's key {@link FACTS_MEMORY_KEY}
 * as `{ "version": 1, "facts": [ … ] }`. Reading is lenient: a malformed entry is skipped,
 * anything unreadable is no facts, so a bad row never breaks a turn.
 */
import { z } from "zod";
import type { JsonValue } from "../../store/persistent-memory.ts";
import {
  clip,
  FACT_CATEGORIES,
  type Fact,
  MAX_ID_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TEXT_CHARS,
  MAX_VALUE_CHARS,
} from "./types.ts";

/** The persistent_memory key of a thread's facts. */
export const FACTS_MEMORY_KEY = "facts";
export const FACTS_STORAGE_VERSION = 1;

const text = (max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .pipe(z.string().min(1))
    .transform((value) => clip(value, max));

/** One stored fact; unknown keys are dropped. */
export const storedFactSchema = z.object({
  id: text(MAX_ID_CHARS),
  category: z.enum(FACT_CATEGORIES),
  text: text(MAX_TEXT_CHARS),
  value: text(MAX_VALUE_CHARS),
  lang: z.enum(["ko", "en"]),
  source: z
    .string()
    .transform((value) => clip(value, MAX_SOURCE_CHARS))
    .catch(""),
  turn: z.number().int().nonnegative().optional().catch(undefined),
});

/** The JSON value to store under {@link FACTS_MEMORY_KEY}. */
export function factsToJson(facts: readonly Fact[]): JsonValue {
  return {
    version: FACTS_STORAGE_VERSION,
    facts: facts.map((fact) => {
      const entry: { [key: string]: JsonValue } = {
        id: fact.id,
        category: fact.category,
        text: fact.text,
        value: fact.value,
        lang: fact.lang,
        source: fact.source,
      };
      if (fact.turn !== undefined && Number.isFinite(fact.turn)) entry.turn = fact.turn;
      return entry;
    }),
  };
}

/**
 * The facts of a stored value: the `{version, facts}` object or a bare array. Malformed
 * entries are skipped; a duplicate id keeps the later entry; anything else gives [].
 */
export function parseStoredFacts(value: unknown): Fact[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === "object" &&
        value !== null &&
        Array.isArray((value as { facts?: unknown }).facts)
      ? ((value as { facts: unknown[] }).facts as unknown[])
      : [];
  const byId = new Map<string, Fact>();
  for (const entry of list) {
    const parsed = storedFactSchema.safeParse(entry);
    if (!parsed.success) continue;
    const { turn, ...rest } = parsed.data;
    const fact: Fact = turn === undefined ? rest : { ...rest, turn };
    byId.delete(fact.id);
    byId.set(fact.id, fact);
  }
  return [...byId.values()];
}

/** The texts for the prompt's `facts` slot (PromptParts.facts). */
export function factTexts(facts: readonly Fact[]): string[] {
  return facts.map((fact) => fact.text);
}
