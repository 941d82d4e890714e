/**
 * Seed, the step after load: `metadata.history` of the request, validated with the turn's
 * config (R5); the graph's prepare node seeds an empty thread with it. A bad seed is the
 * caller's mistake (INPUT_INVALID) and nothing is written.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { MemoryConfig } from "../../memory/config.ts";
import { parseHistorySeed, type SeedReport } from "../../memory/seed.ts";

export interface TurnSeed {
  readonly messages: readonly BaseMessage[];
  /** What validation accepted, dropped and cut (undefined: the caller passed messages). */
  readonly report: SeedReport | undefined;
}

export function seedOf(
  request: { readonly history?: unknown; readonly seed?: readonly BaseMessage[] | undefined },
  config: MemoryConfig,
): TurnSeed {
  if (request.history !== undefined) {
    const parsed = parseHistorySeed(request.history, {
      maxMessages: config.a2a_history_max_messages,
    });
    return { messages: parsed.messages, report: parsed.report };
  }
  return { messages: request.seed ?? [], report: undefined };
}
