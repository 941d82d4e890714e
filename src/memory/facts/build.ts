/**
 * Candidates (what a rule found) → Facts: the id and the normalised third-person text in
 * the language of the clause.
 */

import { pattern } from "./regex.ts";
import {
  clip,
  copula,
  type Fact,
  type FactCategory,
  type FactLang,
  factId,
  josa,
  MAX_SOURCE_CHARS,
  MAX_TEXT_CHARS,
  MAX_VALUE_CHARS,
} from "./types.ts";

export type CandidateForm =
  | "plain"
  | "nickname"
  | "hometown"
  | "location"
  | "favorite"
  | "hobby"
  | "cant-eat"
  | "avoid"
  | "remote"
  | "learning"
  | "native";

export interface Candidate {
  category: FactCategory;
  value: string;
  lang: FactLang;
  /** Sub-key of the id (relation, possession kind, favorite slot, other slot, hometown …). */
  key?: string | undefined;
  /** Wording of the text (see factText). */
  form?: CandidateForm | undefined;
  /** The favorite slot ("color") or other slot label ("age"). */
  slot?: string | undefined;
  /** The clause, for categories whose value alone says too little (family, plan, health). */
  detail?: string | undefined;
  /** A family member's name said with the relation ("준호를 남편이라고": members.ts). */
  name?: string | undefined;
}

export interface Retraction {
  category: FactCategory;
  /** Only facts whose value matches; undefined retracts every fact of the category/key. */
  value?: string | undefined;
  /** Only this id (e.g. "possession:car"). */
  id?: string | undefined;
}

const OTHER_LABELS: Record<string, readonly [string, string]> = {
  age: ["나이", "age"],
  birthday: ["생일", "birthday"],
  nationality: ["국적", "nationality"],
  major: ["전공", "major"],
  mbti: ["MBTI", "MBTI"],
  living: ["거주 형태", "living arrangement"],
};

const FACT_TEXT_RE1 = pattern(String.raw`^(?:a|an|the|two|three|\d)\b`, "i");
const FACT_TEXT_RE2 = pattern("^[aeiou]", "i", "a|e|i|o|u");

/** How the text of a native language starts (recall.ts finds "what's my first language?" by it). */
export const NATIVE_TEXT_KO = "사용자의 모국어는";
export const NATIVE_TEXT_EN = "The user's first language is";

/** Whether a fact is a language the user called their own (form `native`). */
export const isNativeLanguage = (fact: { id: string; text: string }): boolean =>
  fact.id.startsWith("other:language:") &&
  (fact.text.startsWith(NATIVE_TEXT_KO) || fact.text.startsWith(NATIVE_TEXT_EN));

/** The normalised third-person text of a candidate. */
export function factText(c: Candidate): string {
  const v = c.value;
  const detail = c.detail === undefined ? v : clip(c.detail, 160);
  if (c.lang === "ko") {
    switch (c.category) {
      case "name":
        return c.form === "nickname"
          ? `사용자는 ${josa(v, "이라고", "라고")} 불리기를 원한다`
          : `사용자의 이름은 ${copula(v)}`;
      case "residence":
        return c.form === "hometown" ? `사용자는 ${v} 출신이다` : `사용자는 ${v}에 산다`;
      case "workplace":
        if (c.form === "location") return `사용자의 직장은 ${v}에 있다`;
        if (c.form === "remote") return "사용자는 재택근무를 한다";
        return `사용자는 ${v}에서 일한다`;
      case "job":
        return `사용자의 직업은 ${copula(v)}`;
      case "family":
        return `사용자의 가족(${v}): ${detail}`;
      case "preference":
        if (c.form === "favorite") return `사용자가 가장 좋아하는 ${c.slot ?? "것"}: ${v}`;
        if (c.form === "hobby") return `사용자의 취미는 ${copula(v)}`;
        return `사용자는 ${josa(v, "을", "를")} 좋아한다`;
      case "dislike":
        return `사용자는 ${josa(v, "을", "를")} 싫어한다`;
      case "allergy":
        return c.form === "cant-eat"
          ? `사용자는 ${josa(v, "을", "를")} 못 먹는다`
          : `사용자는 ${v} 알레르기가 있다`;
      case "health":
        if (c.form === "avoid") return `사용자는 ${josa(v, "을", "를")} 피한다: ${detail}`;
        return `사용자의 건강·식단 정보: ${detail}`;
      case "plan":
        return `사용자의 계획: ${detail}`;
      case "possession":
        return `사용자는 ${josa(v, "을", "를")} 가지고 있다`;
      case "other": {
        if (c.slot === "language") {
          if (c.form === "native") return `${NATIVE_TEXT_KO} ${copula(v)}`;
          return c.form === "learning"
            ? `사용자는 ${josa(v, "을", "를")} 배우고 있다`
            : `사용자는 ${josa(v, "을", "를")} 할 줄 안다`;
        }
        const label = OTHER_LABELS[c.slot ?? ""]?.[0];
        return label === undefined ? `사용자 정보: ${detail}` : `사용자의 ${label}: ${v}`;
      }
    }
  }
  switch (c.category) {
    case "name":
      return c.form === "nickname" ? `The user wants to be called ${v}` : `The user's name is ${v}`;
    case "residence":
      return c.form === "hometown" ? `The user is from ${v}` : `The user lives in ${v}`;
    case "workplace":
      if (c.form === "location") return `The user's workplace is in ${v}`;
      if (c.form === "remote") return "The user works remotely";
      return `The user works at ${v}`;
    case "job":
      return `The user's occupation: ${v}`;
    case "family":
      return `The user's family (${v}): ${detail}`;
    case "preference":
      if (c.form === "favorite") return `The user's favorite ${c.slot ?? "thing"} is ${v}`;
      if (c.form === "hobby") return `The user's hobby: ${v}`;
      return `The user likes ${v}`;
    case "dislike":
      return `The user dislikes ${v}`;
    case "allergy":
      return c.form === "cant-eat" ? `The user can't eat ${v}` : `The user is allergic to ${v}`;
    case "health":
      return `The user's health/diet: ${detail}`;
    case "plan":
      return `The user's plan: ${detail}`;
    case "possession":
      return `The user has ${FACT_TEXT_RE1.test(v) ? v : `${FACT_TEXT_RE2.test(v) ? "an" : "a"} ${v}`}`;
    case "other": {
      if (c.slot === "language") {
        if (c.form === "native") return `${NATIVE_TEXT_EN} ${v}`;
        return c.form === "learning" ? `The user is learning ${v}` : `The user speaks ${v}`;
      }
      const label = OTHER_LABELS[c.slot ?? ""]?.[1];
      return label === undefined ? `About the user: ${detail}` : `The user's ${label}: ${v}`;
    }
  }
}

const TIDY_VALUE_RE1 = pattern(String.raw`\s+`, "g");

const TIDY_VALUE_RE2 = pattern(String.raw`^[\s"'“”‘’([]+|[\s"'“”‘’)\].,!?;:~…]+$`, "gu");

/** Trims a value: spaces, surrounding quotes and punctuation. */
export function tidyValue(value: string): string {
  return TIDY_VALUE_RE2.replace(TIDY_VALUE_RE1.replace(value, " "), "").trim();
}

export function toFact(c: Candidate, source: string, turn: number | undefined): Fact {
  const value = clip(tidyValue(c.value), MAX_VALUE_CHARS);
  const candidate = { ...c, value };
  const fact: Fact = {
    id: factId(c.category, value, c.key),
    category: c.category,
    text: clip(factText(candidate), MAX_TEXT_CHARS),
    value,
    lang: c.lang,
    source: clip(source, MAX_SOURCE_CHARS),
  };
  if (turn !== undefined) fact.turn = turn;
  return fact;
}
