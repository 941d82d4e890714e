/**
 * The `sqlite` backend's transcript and recall search (sqlite-transcript-sql.ts), for
 * SqliteSaver: append the rows a turn moved out of the live tail, read a range back, and the
 * recall search the turn asks for with its read — answered in the same synchronous read as
 * the checkpoint, in the shape NeonSaver's SELECT_RECALL gives (store/recall-prefetch.ts):
 * matches ranked by FTS5 bm25(), each with its indexed neighbours seq ± 1, plus the thread's
 * statistics so the turn's BM25 scores as over the whole thread.
 */
import type { PrefetchedRecall, PrefetchedRecallCandidate } from "./recall-prefetch.ts";
import { rows, type SqliteExec } from "./sqlite-sql.ts";
import {
  SQ_APPEND_TRANSCRIPT,
  SQ_RECALL_DF,
  SQ_RECALL_HITS,
  SQ_RECALL_ROWS,
  SQ_RECALL_STATS,
  SQ_SELECT_TRANSCRIPT,
} from "./sqlite-transcript-sql.ts";
import type { TranscriptRow } from "./transcript.ts";

/** The prompt quotes at most 400 characters of a recalled message (as SELECT_RECALL cuts). */
const TEXT_CHARS = 401;

/** Write transcript rows of a thread (call inside the transaction of the checkpoint). */
export function appendSqliteTranscript(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  transcript: readonly TranscriptRow[],
): void {
  for (const row of transcript) {
    const count = row.terms === null || row.terms === "" ? 0 : row.terms.split(" ").length;
    rows(
      db,
      SQ_APPEND_TRANSCRIPT,
      agentId,
      threadId,
      row.seq,
      JSON.stringify(row.message),
      row.terms,
      row.version,
      count,
      row.conversation === null ? null : row.conversation ? 1 : 0,
    );
  }
}

/** Transcript rows [from, to) of a thread, in order, message JSON parsed. */
export function readSqliteTranscript(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  from: number,
  to: number | undefined,
): { message: unknown }[] {
  return rows<{ message: string }>(
    db,
    SQ_SELECT_TRANSCRIPT,
    agentId,
    threadId,
    from,
    to ?? null,
  ).map((row) => ({ message: JSON.parse(row.message) as unknown }));
}

/** A term as an FTS5 string (quoted; a `"` inside doubled — terms have none, by contract). */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * The recall search of a thread for `terms` (queryTerms of the new user message): at most
 * `limit` matches, best bm25() first, with their neighbours, and the thread's statistics.
 */
export function searchSqliteTranscript(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  query: { terms: readonly string[]; limit: number },
): PrefetchedRecall {
  const terms = [...new Set(query.terms.filter((t) => t !== ""))];
  const [stats] = rows<{ docs: number; avg_len: number }>(db, SQ_RECALL_STATS, agentId, threadId);
  const docs = Number(stats?.docs ?? 0);
  const empty = { candidates: [], stats: { docs, avgLength: Number(stats?.avg_len ?? 0), df: {} } };
  if (terms.length === 0 || docs === 0) return empty;
  const df: Record<string, number> = {};
  for (const term of terms) {
    const [row] = rows<{ n: number }>(db, SQ_RECALL_DF, agentId, threadId, ftsString(term));
    df[term] = Number(row?.n ?? 0);
  }
  const match = terms.map(ftsString).join(" OR ");
  // Local rows cost no network bytes: a wider pool than asked for (the turn ranks it, with
  // the thread's own statistics; bm25() here uses those of the whole object's index).
  const pool = Math.max(RECALL_MIN_POOL, query.limit * 2);
  const hits = rows<{ seq: number }>(db, SQ_RECALL_HITS, agentId, threadId, match, pool);
  const picked = new Set<number>();
  for (const { seq } of hits) for (const d of [-1, 0, 1]) picked.add(Number(seq) + d);
  const found = rows<{ seq: number; message: string; search_terms: string }>(
    db,
    SQ_RECALL_ROWS,
    agentId,
    threadId,
    JSON.stringify([...picked]),
  );
  const candidates = found.flatMap((row) => {
    const candidate = candidateOf(Number(row.seq), row.message, row.search_terms);
    return candidate === undefined ? [] : [candidate];
  });
  return { candidates, stats: { ...empty.stats, df } };
}

/** The fewest FTS5 matches a recall reads (each with its neighbours). */
const RECALL_MIN_POOL = 10;

/** A stored row as a recall candidate (id, role and text read from LangChain's JSON). */
function candidateOf(
  seq: number,
  json: string,
  terms: string,
): PrefetchedRecallCandidate | undefined {
  let message: { id?: unknown; kwargs?: { id?: unknown; content?: unknown } };
  try {
    message = JSON.parse(json) as typeof message;
  } catch {
    return undefined;
  }
  const kind = Array.isArray(message.id) ? String(message.id.at(-1) ?? "") : "";
  const id = message.kwargs?.id;
  return {
    id: typeof id === "string" ? id : `seq-${seq}`,
    seq,
    role: kind.startsWith("Human") ? "user" : "assistant",
    text: cut(textOf(message.kwargs?.content), TEXT_CHARS),
    terms: terms === "" ? [] : terms.split(" "),
  };
}

/** The first `chars` characters (code points, as Postgres' left()). */
function cut(text: string, chars: number): string {
  return text.length <= chars
    ? text
    : Array.from(text.slice(0, chars * 2))
        .slice(0, chars)
        .join("");
}

/** The text parts of a serialised message's content (as memory/recall textOfMessage). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part === "string") return part;
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === "string" ? text : "";
    })
    .join("");
}
