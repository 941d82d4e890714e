/**
 * Text that must never become a fact, in both extraction modes: the heuristic's values and
 * quoted clauses (fit.ts) and the model's operations (operations.ts).
 */

/** Text that tries to steer the model rather than state something about the user. */
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[\s\S]{0,40}\b(?:instructions?|prompts?|rules?|previous|above|system|guidelines?)\b/i,
  /\b(?:system|developer|hidden)\s*(?:prompt|message|instructions?)\b/i,
  /\byou\s+(?:are|must|should|will)\s+(?:now\b|an?\b|the\b|no longer\b|always\b|never\b)/i,
  /\b(?:act as|pretend to be|from now on|new instructions?|jailbreak)\b/i,
  /^\s*(?:system|assistant|user|developer|tool)\s*:/i,
  /(?:이전|위의?|앞의?|모든)\s*(?:지시|명령|지침|프롬프트|규칙)/,
  /(?:시스템|개발자)\s*(?:프롬프트|메시지|지시)/,
  /(?:무시하고|무시해|무시하세요|무시할\s*것)/,
  /(?:너는|당신은)\s*(?:이제|지금부터)/,
  /지금부터\s*(?:너는|당신은)/,
];

const MARKUP = /[<>{}[\]`\\|]|#{2,}|:\/\//;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Why text is refused as (part of) a fact whatever its slot, or undefined: control
 * characters, an instruction to the model, markup or a link. A fact reaches the model in a
 * system-side block, so text that could pass for a block marker or an order is never kept;
 * conversation recall still quotes the message, as data.
 */
export function hostileText(raw: string): string | undefined {
  if (CONTROL.test(raw)) return "value has line breaks or control characters";
  if (INSTRUCTION_PATTERNS.some((re) => re.test(raw))) {
    return "value reads as an instruction, not a fact about the user";
  }
  if (MARKUP.test(raw)) return "value has markup, brackets or a link";
  return undefined;
}

/** {@link hostileText}, and a question is no value either (the model's operations). */
export function hostileValue(raw: string): string | undefined {
  return hostileText(raw) ?? (/[?？]\s*$/.test(raw) ? "value is a question" : undefined);
}
