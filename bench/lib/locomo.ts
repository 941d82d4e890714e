/**
 * LoCoMo (snap-research/LoCoMo, `data/locomo10.json`: 10 long two-person conversations
 * with questions whose evidence names the turns that answer them) for `npm run eval:memory`.
 * The file is read at eval time and never committed: `--locomo <path>`, env LOCOMO_PATH,
 * or a download from GitHub; when none works the eval says how to provide it.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export const LOCOMO_URL =
  "https://raw.githubusercontent.com/snap-research/LoCoMo/main/data/locomo10.json";

/** The first five conversations are tuned on; the other five are the held-out check. */
export const TUNING = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43"] as const;

const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
});

const qaSchema = z.object({
  question: z.string(),
  evidence: z.array(z.string()).default([]),
  category: z.number(),
});

const sampleSchema = z.object({
  sample_id: z.string(),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(qaSchema),
});

export interface Turn {
  diaId: string;
  speaker: string;
  text: string;
}

export interface Question {
  question: string;
  category: number;
  /** dia_ids of the turns that answer it ("D1:3"). */
  evidence: string[];
}

export interface Conversation {
  id: string;
  /** Every turn, sessions in order. */
  turns: Turn[];
  /** Questions of categories 1–4 (5, adversarial, has no answer in the conversation). */
  questions: Question[];
}

/** "D8:6; D9:17" and ["D8:6", "D9:17"] both give D8:6, D9:17; malformed ids are dropped. */
function evidenceIds(raw: readonly string[]): string[] {
  return raw.flatMap((entry) => entry.split(/[;,\s]+/)).filter((id) => /^D\d+:\d+$/.test(id));
}

export function parseLocomo(json: unknown): Conversation[] {
  const samples = z.array(sampleSchema).parse(json);
  return samples.map((sample) => {
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const turns = sessions.flatMap((n) =>
      z
        .array(turnSchema)
        .parse(sample.conversation[`session_${n}`])
        .map((t) => ({ diaId: t.dia_id, speaker: t.speaker, text: t.text })),
    );
    const questions = sample.qa
      .filter((q) => q.category >= 1 && q.category <= 4)
      .map((q) => ({
        question: q.question,
        category: q.category,
        evidence: evidenceIds(q.evidence),
      }))
      .filter((q) => q.evidence.length > 0);
    return { id: sample.sample_id, turns, questions };
  });
}

export const HOW_TO_PROVIDE = [
  "LoCoMo is not committed; the eval reads it at run time. Provide data/locomo10.json of",
  "github.com/snap-research/LoCoMo in one of these ways:",
  "  npm run eval:memory -- --locomo /path/to/locomo10.json",
  "  LOCOMO_PATH=/path/to/locomo10.json npm run eval:memory",
  `  or let the eval download it (needs access to ${new URL(LOCOMO_URL).host}).`,
].join("\n");

/** Reads the file from `path`, or downloads it; throws with {@link HOW_TO_PROVIDE} on failure. */
export async function loadLocomo(path: string | undefined): Promise<Conversation[]> {
  if (path !== undefined && path !== "") {
    try {
      return parseLocomo(JSON.parse(readFileSync(path, "utf8")));
    } catch (error) {
      throw new Error(`cannot read LoCoMo from ${path}: ${String(error)}\n${HOW_TO_PROVIDE}`);
    }
  }
  try {
    const response = await fetch(LOCOMO_URL, { signal: AbortSignal.timeout(20_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return parseLocomo(await response.json());
  } catch (error) {
    throw new Error(`cannot download LoCoMo (${String(error)}).\n${HOW_TO_PROVIDE}`);
  }
}
