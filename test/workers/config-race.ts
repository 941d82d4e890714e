/**
 * R10.2 "concurrent PATCHes of different keys all take effect": ten valid run-time keys of
 * MemoryConfig, each set away from its default by a PATCH of its own, all sent at once
 * (shared by the postgres and the Durable Object backend tests).
 */
import { expect } from "vitest";

type Api = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Record<string, unknown> }>;

/** Ten distinct run-time keys, each with a valid non-default value on every backend. */
export const TEN_KEYS = {
  window_size: 7,
  history_aware: false,
  max_history_tokens: 5000,
  persist_trim_keep_groups: 3,
  summarize_threshold: 12,
  facts_mode: "heuristic",
  fact_recall_max_items: 4,
  recall_max_items: 9,
  prompt_context_mode: "stable_tail",
  a2a_history_max_messages: 11,
} as const;

/** Ten PATCHes of one key each, all at once; every one must answer 200. */
export async function patchEachKeyAtOnce(api: Api): Promise<void> {
  const answers = await Promise.all(
    Object.entries(TEN_KEYS).map(([key, value]) =>
      api("PATCH", "/api/v1/memory/config", { [key]: value }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
}

/** Five DELETE ?key= of one key each, all at once; every one must answer 200. */
export async function deleteKeysAtOnce(api: Api, keys: readonly string[]): Promise<void> {
  const answers = await Promise.all(
    keys.map((key) => api("DELETE", `/api/v1/memory/config?key=${key}`)),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
}
