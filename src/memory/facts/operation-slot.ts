/**
 * Where a model's fact operation lands (the `llm` mode, R8.1, R8.3): the slot named by its
 * kind and key, and whether its value fits that slot. This file is the only place the
 * operations know how slots are defined (types.ts: the categories, which are single-valued,
 * the id of a slot); point {@link slotForOperation} at another definition of slots and the
 * rest of the operations follow.
 */
import { possessionKind, RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import {
  FACT_CATEGORIES,
  type FactCategory,
  factId,
  MAX_VALUE_CHARS,
  SINGLE_VALUED,
  valueKey,
} from "./types.ts";

/** One slot of the facts: a kind, its key, and how many values it holds. */
export interface FactSlot {
  /** The fact id of the slot ("residence", "family:son", "allergy:peanut"). */
  readonly id: string;
  readonly category: FactCategory;
  /** The key within the kind (relation, thing, label), when the kind has one. */
  readonly key: string | undefined;
  /** One current value for the kind (name, residence, workplace, job). */
  readonly single: boolean;
}

export type SlotCheck =
  | { readonly ok: true; readonly slot: FactSlot }
  | { readonly ok: false; readonly reason: string };

/** Most words a value of the kind may have: a name is a name, a place a place, not a sentence. */
const MAX_WORDS: Readonly<Record<FactCategory, number>> = {
  name: 4,
  residence: 6,
  workplace: 8,
  job: 6,
  family: 10,
  preference: 8,
  dislike: 8,
  allergy: 6,
  health: 12,
  plan: 14,
  possession: 8,
  other: 8,
};

const OTHER_LABELS = /^(?:age|birthday|major|nationality|mbti|living|language:[a-z]+)$/;

function isKind(kind: string): kind is FactCategory {
  return (FACT_CATEGORIES as readonly string[]).includes(kind);
}

/** A member's name in a slot key, as members.ts keys it (lower-cased, letters only). */
const MEMBER_NAME = /^\p{L}[\p{L}\p{M}'’ -]{0,39}$/u;

/**
 * The key of a family slot: the relation ("son"), or the relation and the member's name
 * ("son:leo") for a named member — the key the model is shown for that member's fact
 * (model.ts), so an update lands on the member's own slot (members.ts), not beside it.
 */
function familyKey(raw: string): string | undefined {
  const colon = raw.indexOf(":");
  if (colon < 0) return RELATIONS_EN[raw] ?? RELATIONS_KO[raw] ?? (valueKey(raw) || undefined);
  const word = raw.slice(0, colon).trim();
  const relation = RELATIONS_EN[word] ?? RELATIONS_KO[word];
  const name = raw.slice(colon + 1).trim();
  if (relation === undefined || !MEMBER_NAME.test(name)) return undefined;
  return `${relation}:${name}`;
}

/** The key of a slot of `category`, from the operation's key (or its value, for keyed kinds). */
function keyOf(category: FactCategory, key: string, value: string): string | undefined {
  if (SINGLE_VALUED.has(category)) {
    if (category === "residence" && /home\s*town|origin|^from$|고향|출신/.test(key))
      return "hometown";
    if (category === "workplace" && /location|위치/.test(key)) return "location";
    return undefined;
  }
  const raw = key === "" ? value.toLowerCase() : key;
  if (category === "family") return familyKey(raw);
  if (category === "possession") return possessionKind(raw) ?? (valueKey(raw) || undefined);
  if (category === "preference" && raw.startsWith("favorite:")) {
    const thing = valueKey(raw.slice("favorite:".length));
    return thing === "" ? undefined : `favorite:${thing}`;
  }
  if (category === "other" && OTHER_LABELS.test(raw)) return raw;
  return valueKey(raw) || undefined;
}

/**
 * The slot an operation names by `kind` and `key` (`value` keys a kind whose key is its thing,
 * e.g. an allergy). A reason when there is no such slot.
 */
export function slotForOperation(
  kind: string,
  key: string | undefined,
  value: string | undefined,
): SlotCheck {
  const name = kind.trim().toLowerCase();
  if (!isKind(name)) {
    return {
      ok: false,
      reason: `unknown kind "${kind.slice(0, 40)}" (known: ${FACT_CATEGORIES.join(", ")})`,
    };
  }
  const rawKey = (key ?? "").trim().toLowerCase();
  if (!SINGLE_VALUED.has(name) && rawKey === "" && (value ?? "").trim() === "") {
    return { ok: false, reason: `kind "${name}" needs a key or a value to name its slot` };
  }
  const slotKey = keyOf(name, rawKey, value ?? "");
  if (!SINGLE_VALUED.has(name) && slotKey === undefined) {
    return { ok: false, reason: `kind "${name}" has no slot for key "${rawKey.slice(0, 40)}"` };
  }
  const id = factId(name, value ?? "", slotKey);
  return { ok: true, slot: { id, category: name, key: slotKey, single: SINGLE_VALUED.has(name) } };
}

/** Why `value` does not fit `slot`, or undefined when it does (its shape, not its truth). */
export function valueMisfit(slot: FactSlot, value: string): string | undefined {
  if (value.length > MAX_VALUE_CHARS) {
    return `value is over-long (${value.length} characters; at most ${MAX_VALUE_CHARS})`;
  }
  const words = value.split(/\s+/).filter((word) => word !== "").length;
  const most = MAX_WORDS[slot.category];
  if (words > most) return `value has ${words} words; a ${slot.category} value has at most ${most}`;
  if (slot.category === "name" && /\d/.test(value)) return "a name has no digits";
  return undefined;
}
