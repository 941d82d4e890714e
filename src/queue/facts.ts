/**
 * The `llm` mode's facts job (R8.1), off the request path like summaries: the user messages a
 * turn added, read from the stored thread, and the facts known before them go to the agent's
 * model; its operations are validated (memory/facts/operations.ts), applied, and stored under
 * `facts_llm` — the state the turns serve, with the heuristic's facts of messages no job has
 * applied yet laid over it (memory/facts/served.ts).
 *
 * | what happens                                  | outcome                 | stored   |
 * |-----------------------------------------------|-------------------------|----------|
 * | the messages are applied already (redelivery) | skipped already_applied | nothing  |
 * | the thread or its messages are gone (erase, trim, prune) | skipped not_in_thread | nothing |
 * | an erase moved the generation while it ran     | skipped erased          | nothing  |
 * | the model fails or times out                   | throws MODEL_FAILED (the consumer retries) | nothing |
 * | the answer is malformed, or every operation is refused | failed (logged with its code) | nothing |
 * | otherwise                                      | applied (refused operations logged one by one) | the state |
 *
 * Fenced like the summary job (store/thread-fence.ts, R11.1): the generation is read before
 * anything of the thread, and the write lands only while it holds — so an erase is never
 * undone by a job — and only while `facts_llm` still holds what the job read, so two jobs of
 * one thread never overwrite each other (the loser applies its operations again on the new
 * state, without another model call). Whatever fails, the heuristic facts keep serving.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { isLlamonError, LlamonError } from "../errors.ts";
import type { Logger } from "../log.ts";
import {
  applyOperations,
  decodeOperations,
  FACT_OPERATIONS_PROMPT,
  FACTS_MEMORY_KEY,
  factOperationsInput,
  factsBefore,
  hasApplied,
  type JobMessage,
  MODEL_FACTS_MEMORY_KEY,
  modelFactStateToJson,
  type OperationsVerdict,
  parseFactState,
  parseModelFactState,
  validateOperations,
} from "../memory/facts/index.ts";
import { clip } from "../memory/facts/types.ts";
import { messageText } from "../memory/summary-input.ts";
import type { PersistentMemory } from "../store/persistent-memory.ts";
import type { ThreadFence } from "../store/thread-fence.ts";
import type { FactsJob } from "./jobs.ts";
import type { SummaryThread } from "./summarize.ts";

/** How long the model may take to answer a facts job (it is retried after that). */
export const FACTS_JOB_TIMEOUT_MS = 30_000;
/** Most characters of one message sent to the model (the heuristic reads fewer). */
export const MAX_JOB_MESSAGE_CHARS = 4000;
/** Times a job applies its operations again after another job of the thread wrote first. */
const MAX_SWAPS = 4;

export interface FactsJobDeps {
  /** The stored thread (head + transcript ranges), read-only. */
  readonly thread: SummaryThread;
  /** persistent_memory of the job's agent. */
  readonly memory: PersistentMemory;
  /** The thread's generation (R11.1): read first; the write lands only while it holds. */
  readonly fence: ThreadFence;
  /** The agent's model. */
  readonly model: BaseChatModel;
  readonly log?: Logger | undefined;
  /** The facts' date (tests). */
  readonly now?: (() => Date) | undefined;
  /** Default {@link FACTS_JOB_TIMEOUT_MS}. */
  readonly timeoutMs?: number | undefined;
}

export type FactsSkipReason = "already_applied" | "not_in_thread" | "erased";
export type FactsFailReason = "malformed_answer" | "rejected_answer";

/** What a facts job did; plain data, so it crosses Durable Object RPC. */
export type FactsOutcome =
  | {
      status: "applied";
      threadId: string;
      messages: number;
      accepted: number;
      rejected: number;
      /** Accepted operations that changed nothing (the value was there, a later one stands). */
      unchanged: number;
    }
  | { status: "skipped"; threadId: string; reason: FactsSkipReason }
  | { status: "failed"; threadId: string; reason: FactsFailReason; rejected: number };

/** The job's messages as stored: user messages with their ids, or undefined when one is gone. */
async function readMessages(
  reader: SummaryThread,
  job: FactsJob,
): Promise<JobMessage[] | undefined> {
  const head = await reader.head();
  const found: JobMessage[] = [];
  for (const wanted of job.messages) {
    let message: BaseMessage | undefined;
    let position = wanted.position;
    const at = head.messages.findIndex((m) => m.id === wanted.id);
    if (at >= 0) {
      message = head.messages[at];
      position = head.offset + at;
    } else if (wanted.position < head.offset) {
      [message] = await reader.range(wanted.position, wanted.position + 1);
    }
    if (message === undefined || message.id !== wanted.id || message.getType() !== "human") {
      return undefined;
    }
    found.push({
      id: wanted.id,
      position,
      text: clip(messageText(message), MAX_JOB_MESSAGE_CHARS),
    });
  }
  return found;
}

async function askModel(deps: FactsJobDeps, input: string, where: string): Promise<unknown> {
  const timeoutMs = deps.timeoutMs ?? FACTS_JOB_TIMEOUT_MS;
  try {
    const reply = await deps.model.invoke(
      [new SystemMessage(FACT_OPERATIONS_PROMPT), new HumanMessage(input)],
      { signal: AbortSignal.timeout(timeoutMs) },
    );
    return reply.content;
  } catch (error) {
    // The adapters' own errors carry their code (MODEL_FAILED, CONFIG_INVALID) and retryable.
    if (isLlamonError(error)) throw error;
    const timedOut =
      error instanceof Error && /abort|timeout/i.test(`${error.name} ${error.message}`);
    throw new LlamonError(
      "MODEL_FAILED",
      `facts: the model call failed (${where})${timedOut ? `: no answer within ${timeoutMs} ms` : ""}`,
      { cause: error, details: { reason: timedOut ? "timeout" : "model_error", retryable: true } },
    );
  }
}

/** Refused operations logged one per line, at most this many per job (then a count). */
const MAX_REFUSED_LINES = 20;

function logRefused(deps: FactsJobDeps, where: string, verdict: OperationsVerdict): void {
  for (const refused of verdict.rejected.slice(0, MAX_REFUSED_LINES)) {
    deps.log?.warn(`facts: refused operation ${refused.index} (${where}): ${refused.reason}`, {
      code: "INPUT_INVALID",
      reason: refused.reason,
    });
  }
  const more = verdict.rejected.length - MAX_REFUSED_LINES;
  if (more > 0) {
    deps.log?.warn(`facts: refused ${more} more operations (${where})`, { code: "INPUT_INVALID" });
  }
}

export async function runFactsJob(deps: FactsJobDeps, job: FactsJob): Promise<FactsOutcome> {
  const threadId = job.thread_id;
  const where = `agent=${job.agent_id} thread=${threadId} messages=${job.messages.map((m) => m.id).join(",")}`;
  const skipped = (reason: FactsSkipReason, why: string): FactsOutcome => {
    deps.log?.info(`facts: skipped ${where}: ${why}`);
    return { status: "skipped", threadId, reason };
  };
  // The generation first: whatever is read after it is of this generation or fenced off.
  const generation = await deps.fence.generation(threadId);
  if (generation === undefined) return skipped("not_in_thread", "the conversation is not stored");
  const ids = new Set(job.messages.map((m) => m.id));
  let rows = (await deps.memory.load(threadId)).thread;
  const applied = (value: unknown) => {
    const state = parseModelFactState(value);
    return job.messages.every((message) => hasApplied(state, message));
  };
  if (applied(rows[MODEL_FACTS_MEMORY_KEY])) {
    return skipped("already_applied", "its messages are applied already");
  }
  const messages = await readMessages(deps.thread, job);
  if (messages === undefined) {
    return skipped(
      "not_in_thread",
      "its messages are not in the stored thread (erased or trimmed)",
    );
  }
  const shown = factsBefore(
    parseFactState(rows[FACTS_MEMORY_KEY]),
    parseModelFactState(rows[MODEL_FACTS_MEMORY_KEY]),
    ids,
  );
  const answer = await askModel(deps, factOperationsInput(shown.facts, messages), where);
  let entries: unknown[];
  try {
    entries = decodeOperations(answer);
  } catch (error) {
    deps.log?.warn(
      `facts: ${error instanceof Error ? error.message : String(error)} (${where}); the heuristic facts stay`,
      {
        code: "MODEL_FAILED",
        reason: "malformed_answer",
      },
    );
    return { status: "failed", threadId, reason: "malformed_answer", rejected: 0 };
  }
  const verdict = validateOperations(entries, messages);
  logRefused(deps, where, verdict);
  if (verdict.accepted.length === 0 && verdict.rejected.length > 0) {
    deps.log?.warn(
      `facts: every operation of the answer was refused (${where}); the heuristic facts stay`,
      {
        code: "INPUT_INVALID",
        reason: "rejected_answer",
      },
    );
    return {
      status: "failed",
      threadId,
      reason: "rejected_answer",
      rejected: verdict.rejected.length,
    };
  }
  const date = deps.now?.() ?? new Date();
  for (let attempt = 1; attempt <= MAX_SWAPS; attempt++) {
    const expected = rows[MODEL_FACTS_MEMORY_KEY];
    const model = parseModelFactState(expected);
    const result = applyOperations({
      before: factsBefore(parseFactState(rows[FACTS_MEMORY_KEY]), model, ids),
      applied: model?.applied ?? [],
      operations: verdict.accepted,
      messages,
      date,
    });
    const written = await deps.fence.swapIfCurrent(
      threadId,
      generation,
      MODEL_FACTS_MEMORY_KEY,
      expected,
      modelFactStateToJson(result.state),
    );
    if (written) {
      deps.log?.info(
        `facts: applied ${verdict.accepted.length - result.skipped.length} of ${verdict.accepted.length} operations (${where}; ${verdict.rejected.length} refused)`,
      );
      return {
        status: "applied",
        threadId,
        messages: messages.length,
        accepted: verdict.accepted.length,
        rejected: verdict.rejected.length,
        unchanged: result.skipped.length,
      };
    }
    if ((await deps.fence.generation(threadId)) !== generation) {
      deps.log?.warn(`facts: dropped ${where}: the conversation was erased while the job ran`);
      return { status: "skipped", threadId, reason: "erased" };
    }
    // Another job of the thread wrote first: apply to what it left, unless it did this job.
    rows = (await deps.memory.load(threadId)).thread;
    if (applied(rows[MODEL_FACTS_MEMORY_KEY])) {
      return skipped("already_applied", "another delivery applied its messages meanwhile");
    }
  }
  throw new LlamonError("THREAD_CONFLICT", `facts: other jobs kept writing first (${where})`, {
    details: { threadId },
  });
}
