/**
 * The slot table (R8.2, R8.3): for each kind of fact one row — its cardinality, how a value
 * of a multi-valued kind is keyed, the shape a value must have (fit.ts), and the question
 * cues that ask for the slot, category words included ("which ingredient" asks for what
 * the user dislikes or must not eat, "회사"/"company" for the workplace).
 *
 * Read by types.ts (which kinds hold one value), fit.ts (the value shape of each kind),
 * members.ts / retraction-cues.ts (the member groups a breakup or a death ends) and
 * recall.ts (the slot intents, scored before the lexical match). A new kind of fact is a
 * row here, its extraction rows, and fixture dialogues.
 */
/** Every kind of fact; each has one row in SLOTS below. */
export const FACT_CATEGORIES = [
  "name",
  "residence",
  "workplace",
  "job",
  "family",
  "preference",
  "dislike",
  "allergy",
  "health",
  "plan",
  "possession",
  "other",
] as const;

export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** What a value of the slot must look like (fit.ts checks it). */
export type ValueShape =
  /** A person's name: no occupation, relation or role word. */
  | "name"
  /** A place. */
  | "place"
  /** An organisation or a place of work. */
  | "organisation"
  /** An occupation word or phrase, never an evaluation ("stressful"). */
  | "occupation"
  /** A member of the family or a pet: a relation, maybe a name and an age. */
  | "member"
  /** A thing or an activity: never a verb phrase or a clause fragment. */
  | "thing"
  /** A short clause kept as said (a plan, a health note). */
  | "clause";

export interface SlotRow {
  readonly kind: FactCategory;
  /** One current value (a newer one retires the old) or several. */
  readonly cardinality: "single" | "multi";
  /**
   * How the values of a multi-valued kind are told apart: by the value (`allergy:peanut`),
   * by the member (`family:son:leo`; members.ts), or by a sub-slot (`other:age`).
   */
  readonly key: "none" | "value" | "member" | "sub";
  readonly shape: ValueShape;
  /**
   * Question cues that ask for this slot, with their weight (recall.ts). Korean cues are
   * matched on the question without spaces, English ones on word boundaries.
   */
  readonly questions: readonly SlotQuestion[];
}

export interface SlotQuestion {
  readonly ko: readonly string[];
  readonly en: readonly string[];
  /** Kinds the cue asks for, with their weight (the row's own kind among them). */
  readonly asks: Partial<Record<FactCategory, number>>;
  /** Fact id prefixes the cue asks for ("family:girlfriend"), with their weight. */
  readonly prefixes?: Readonly<Record<string, number>>;
}

/** Partners: one group, which a breakup or a divorce ends. */
export const PARTNER_RELATIONS = [
  "boyfriend",
  "girlfriend",
  "partner",
  "fiance",
  "spouse",
  "wife",
  "husband",
] as const;

/** Pets: one group, which a death or a new home ends member by member. */
export const PET_MEMBER_RELATIONS = [
  "dog",
  "cat",
  "hamster",
  "bird",
  "rabbit",
  "turtle",
  "fish",
  "guinea-pig",
  "ferret",
  "hedgehog",
  "lizard",
] as const;

const partnerPrefixes = Object.fromEntries(PARTNER_RELATIONS.map((r) => [`family:${r}`, 1.2]));

export const SLOTS: readonly SlotRow[] = [
  { kind: "name", cardinality: "single", key: "none", shape: "name", questions: [] },
  { kind: "residence", cardinality: "single", key: "sub", shape: "place", questions: [] },
  {
    kind: "workplace",
    cardinality: "single",
    key: "sub",
    shape: "organisation",
    questions: [
      {
        ko: ["일터", "직장이어디", "회사가어디", "어느회사", "무슨회사", "다니는곳", "일하는곳"],
        en: ["company", "employer", "workplace", "where do i work", "who do i work for"],
        asks: { workplace: 1.2, job: 0.6 },
      },
    ],
  },
  {
    kind: "job",
    cardinality: "single",
    key: "none",
    shape: "occupation",
    questions: [
      {
        // The role or title asks for the job, not the place.
        ko: ["직책", "직함", "직급", "맡은일", "포지션"],
        en: ["role", "my title", "job title", "my position"],
        asks: { job: 1.2, workplace: 0.5 },
      },
    ],
  },
  {
    kind: "family",
    cardinality: "multi",
    key: "member",
    shape: "member",
    questions: [
      {
        ko: ["사귀는", "만나는사람", "연애", "애인"],
        en: ["dating", "seeing", "partner", "relationship", "anniversary"],
        asks: { family: 0.8 },
        prefixes: partnerPrefixes,
      },
    ],
  },
  {
    kind: "preference",
    cardinality: "multi",
    key: "value",
    shape: "thing",
    questions: [
      {
        // What the user does for fun or exercise now is a taste ("요즘 즐기는 운동").
        ko: ["즐기는", "즐겨하는", "운동계획", "운동루틴", "하는운동"],
        en: ["enjoy doing", "do for fun", "workout plan", "exercise plan"],
        asks: { preference: 1.2, health: 0.6 },
      },
    ],
  },
  {
    kind: "dislike",
    cardinality: "multi",
    key: "value",
    shape: "thing",
    questions: [
      {
        // A category word, not the thing: which ingredient to leave out is what the user
        // dislikes or must not eat.
        ko: ["재료", "식재료", "빼야", "빼고", "넣지말", "넣으면안"],
        en: ["ingredient", "ingredients", "keep out", "leave out", "meals"],
        asks: { dislike: 1, allergy: 1, health: 0.6 },
      },
    ],
  },
  { kind: "allergy", cardinality: "multi", key: "value", shape: "thing", questions: [] },
  { kind: "health", cardinality: "multi", key: "value", shape: "clause", questions: [] },
  {
    kind: "plan",
    cardinality: "multi",
    key: "value",
    shape: "clause",
    questions: [
      {
        // Where the user is going: a trip, in any form of the verb.
        ko: ["어디가", "어디로가", "떠나"],
        en: ["traveling", "travelling", "going to travel", "my plans", "plans for", "pack"],
        asks: { plan: 1.2 },
      },
    ],
  },
  { kind: "possession", cardinality: "multi", key: "sub", shape: "thing", questions: [] },
  { kind: "other", cardinality: "multi", key: "sub", shape: "clause", questions: [] },
];

const BY_KIND: ReadonlyMap<FactCategory, SlotRow> = new Map(SLOTS.map((row) => [row.kind, row]));

/** The row of a kind. */
export function slotOf(kind: FactCategory): SlotRow {
  const row = BY_KIND.get(kind);
  if (row === undefined) throw new TypeError(`no slot row for the fact kind ${kind}`);
  return row;
}

/** The kinds that hold one current value. */
export const SINGLE_KINDS: readonly FactCategory[] = SLOTS.filter(
  (row) => row.cardinality === "single",
).map((row) => row.kind);
