/**
 * Facts in persistent_memory (R8.2, R8.3): stored under the thread's key
 * {@link FACTS_MEMORY_KEY} as `{ "version": 2, "facts": [ … ], "retired": [ … ] }`: each
 * fact with its provenance (`messageId`, `position`, `since`), each retired one also with
 * `retiredAt` and `retiredBy`. Version 1 rows (`{ "version": 1, "facts": [ … ] }`, no
 * provenance, no retired list) and bare arrays read as facts without provenance, and are
 * written back as version 2 on the next change. Reading is lenient: a malformed entry is
 * skipped, anything unreadable is no facts, so a bad row never breaks a turn.
 */
import { z } from "zod";
import type { JsonValue } from "../../store/persistent-memory.ts";
import type { FactState } from "./history.ts";
import {
  clip,
  FACT_CATEGORIES,
  type Fact,
  MAX_ID_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TEXT_CHARS,
  MAX_VALUE_CHARS,
  type RetiredFact,
} from "./types.ts";

/** The persistent_memory key of a thread's facts. */
export const FACTS_MEMORY_KEY = "facts";
export const FACTS_STORAGE_VERSION = 2;

const text = (max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .pipe(z.string().min(1))
    .transform((value) => clip(value, max));

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

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
  messageId: z.string().min(1).max(MAX_ID_CHARS).optional().catch(undefined),
  position: z.number().int().nonnegative().optional().catch(undefined),
  since: isoDate.optional().catch(undefined),
});

/** One stored retired fact: a fact with the date and the message that retired it. */
export const storedRetiredFactSchema = storedFactSchema.extend({
  retiredAt: isoDate,
  retiredBy: z.string().min(1).max(MAX_ID_CHARS).optional().catch(undefined),
});

const FACT_KEYS = ["id", "category", "text", "value", "lang", "source"] as const;
const OPTIONAL_KEYS = ["turn", "messageId", "position", "since"] as const;

function factJson(fact: Fact | RetiredFact): { [key: string]: JsonValue } {
  const entry: { [key: string]: JsonValue } = {};
  for (const key of FACT_KEYS) entry[key] = fact[key];
  for (const key of OPTIONAL_KEYS) {
    const value = fact[key];
    if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) {
      entry[key] = value;
    }
  }
  if ("retiredAt" in fact) {
    entry.retiredAt = fact.retiredAt;
    if (fact.retiredBy !== undefined) entry.retiredBy = fact.retiredBy;
  }
  return entry;
}

/** The JSON value to store under {@link FACTS_MEMORY_KEY} (version 2). */
export function factsToJson(
  facts: readonly Fact[],
  retired: readonly RetiredFact[] = [],
): JsonValue {
  return {
    version: FACTS_STORAGE_VERSION,
    facts: facts.map(factJson),
    retired: retired.map(factJson),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  const out = { ...value };
  for (const key of Object.keys(out) as (keyof T)[]) {
    if (out[key] === undefined) delete out[key];
  }
  return out;
}

function listOf(value: unknown, key: "facts" | "retired"): unknown[] {
  if (Array.isArray(value)) return key === "facts" ? value : [];
  if (typeof value !== "object" || value === null) return [];
  const list = (value as { [k: string]: unknown })[key];
  return Array.isArray(list) ? list : [];
}

/**
 * The facts of a stored value: the `{version, facts}` object or a bare array. Malformed
 * entries are skipped; a duplicate id keeps the later entry; anything else gives [].
 */
export function parseStoredFacts(value: unknown): Fact[] {
  const byId = new Map<string, Fact>();
  for (const entry of listOf(value, "facts")) {
    const parsed = storedFactSchema.safeParse(entry);
    if (!parsed.success) continue;
    const fact: Fact = withoutUndefined(parsed.data);
    byId.delete(fact.id);
    byId.set(fact.id, fact);
  }
  return [...byId.values()];
}

/**
 * A stored value as current and retired facts (version 2; version 1 and bare arrays have no
 * retired list). Malformed retired entries are skipped, and so is a retired entry that is
 * the current value of its slot.
 */
export function parseFactState(value: unknown): FactState {
  const facts = parseStoredFacts(value);
  const retired: RetiredFact[] = [];
  for (const entry of listOf(value, "retired")) {
    const parsed = storedRetiredFactSchema.safeParse(entry);
    if (!parsed.success) continue;
    const fact: RetiredFact = withoutUndefined(parsed.data);
    if (facts.some((now) => now.id === fact.id && now.value === fact.value)) continue;
    retired.push(fact);
  }
  return { facts, retired };
}

/** The texts for the prompt's `facts` slot (PromptParts.facts). */
export function factTexts(facts: readonly Fact[]): string[] {
  return facts.map((fact) => fact.text);
}
