/**
 * The in-memory recall source: the port (./source.ts) over each thread's list of
 * stored messages — what the in_memory Durable Object keeps in its memory.
 *
 * `new ListRecallSource(listOf)`: `listOf(threadId)` gives the thread's messages as they are
 * stored now (`{ seq, message }`, conversation order), or undefined for an unknown thread.
 * Each recall first brings the thread's index (a {@link RecallIndex}) in line with the list:
 * new messages are indexed once (their `searchTerms`), messages gone from the list (prune,
 * erase, trim) leave the index. So the list stays the one source of truth and terms are
 * never computed twice for a message; a query scores only the messages sharing a term.
 *
 * Indexed: HumanMessages (role user) and AIMessages with text (role assistant); tool
 * results, system messages and runtime-context copies never are; a message keeps its seq,
 * so neighbours (seq ± 1) stay those of the conversation.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { isRuntimeContextMessage } from "../prompt-thread.ts";
import { byHigherScore, RecallIndex } from "./bm25.ts";
import type {
  RecallAnswer,
  RecallCandidate,
  RecallRequest,
  RecallRole,
  RecallSource,
} from "./source.ts";
import { searchTerms } from "./terms.ts";

/** One stored message of a thread, at its position. */
export interface StoredMessage {
  readonly seq: number;
  readonly message: BaseMessage;
}

/** The text parts of a message (no placeholders for images or files). */
export function textOfMessage(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content
    .map((part) =>
      typeof part === "string"
        ? part
        : part && typeof part === "object" && "text" in part && typeof part.text === "string"
          ? part.text
          : "",
    )
    .join("");
}

function roleOf(message: BaseMessage): RecallRole | undefined {
  if (isRuntimeContextMessage(message)) return undefined;
  if (HumanMessage.isInstance(message)) return "user";
  if (AIMessage.isInstance(message)) return "assistant";
  return undefined;
}

/**
 * A message's recall index entry as a backend stores it: its `searchTerms` joined by spaces,
 * or null when it is not indexed (not user or assistant text, or no text at all).
 */
export function indexTermsOf(message: BaseMessage): string | null {
  return termsOfMessage(message)?.join(" ") ?? null;
}

/**
 * The terms of each message object indexed so far (null: not indexed). A turn indexes the
 * live tail's messages outside the window for recall and, in the same turn, the oldest of
 * them again when they move to the transcript; messages are not changed once stored.
 */
const messageTerms = new WeakMap<BaseMessage, readonly string[] | null>();

/** `searchTerms` of a user or assistant message's text; null when it is not indexed. */
function termsOfMessage(message: BaseMessage): readonly string[] | null {
  const known = messageTerms.get(message);
  if (known !== undefined) return known;
  const text = roleOf(message) === undefined ? "" : textOfMessage(message);
  const terms = text.trim() === "" ? null : searchTerms(text);
  messageTerms.set(message, terms);
  return terms;
}

interface ThreadIndex {
  readonly index: RecallIndex;
  /** Indexed candidates by id, and their ids by seq. */
  readonly byId: Map<string, RecallCandidate>;
  readonly bySeq: Map<number, string>;
}

export class ListRecallSource implements RecallSource {
  readonly #threads = new Map<string, ThreadIndex>();

  constructor(
    private readonly listOf: (threadId: string) => readonly StoredMessage[] | undefined,
  ) {}

  /** Drops a thread's index (the thread was erased; it is rebuilt if it comes back). */
  forget(threadId: string): void {
    this.#threads.delete(threadId);
  }

  recall(request: RecallRequest): RecallAnswer {
    const thread = this.#sync(request.threadId);
    if (thread === undefined || request.limit < 1 || request.terms.length === 0) {
      return { candidates: [] };
    }
    const { index, byId, bySeq } = thread;
    const { beforeSeq, exclude } = request;
    const matches: { c: RecallCandidate; score: number }[] = [];
    for (const [id, score] of index.scores(request.terms)) {
      const c = byId.get(id);
      if (c === undefined || score <= 0 || exclude.has(id)) continue;
      if (beforeSeq !== undefined && c.seq >= beforeSeq) continue;
      matches.push({ c, score });
    }
    matches.sort((a, b) => byHigherScore(a.score, b.score) || b.c.seq - a.c.seq);
    const out = new Map<string, RecallCandidate>();
    for (const { c } of matches.slice(0, Math.floor(request.limit))) {
      out.set(c.id, c);
      for (const seq of [c.seq - 1, c.seq + 1]) {
        const id = bySeq.get(seq);
        const neighbour = id === undefined ? undefined : byId.get(id);
        if (neighbour !== undefined) out.set(neighbour.id, neighbour);
      }
    }
    const stats = index.stats();
    const df: Record<string, number> = {};
    for (const term of request.terms) df[term] = stats.df(term);
    return {
      candidates: [...out.values()],
      stats: { docs: stats.docs, avgLength: stats.avgLength, df },
    };
  }

  /** Brings the thread's index in line with its list (see the file header). */
  #sync(threadId: string): ThreadIndex | undefined {
    const list = this.listOf(threadId);
    if (list === undefined) {
      this.#threads.delete(threadId);
      return undefined;
    }
    let thread = this.#threads.get(threadId);
    if (thread === undefined) {
      thread = { index: new RecallIndex(), byId: new Map(), bySeq: new Map() };
      this.#threads.set(threadId, thread);
    }
    const present = new Set<string>();
    for (const { seq, message } of list) {
      const role = roleOf(message);
      if (role === undefined) continue;
      const id = message.id ?? `seq-${seq}`;
      const known = thread.byId.get(id);
      if (known !== undefined && known.seq === seq) {
        present.add(id);
        continue;
      }
      const terms = termsOfMessage(message);
      if (terms === null) continue; // an AIMessage with tool calls only
      present.add(id);
      const text = textOfMessage(message);
      if (known !== undefined) thread.bySeq.delete(known.seq);
      thread.byId.set(id, { id, seq, role, text, terms });
      thread.bySeq.set(seq, id);
      thread.index.add(id, terms);
    }
    if (present.size !== thread.byId.size) {
      for (const [id, c] of thread.byId) {
        if (present.has(id)) continue;
        thread.byId.delete(id);
        if (thread.bySeq.get(c.seq) === id) thread.bySeq.delete(c.seq);
        thread.index.remove(id);
      }
    }
    return thread;
  }
}
