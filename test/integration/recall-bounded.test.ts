/**
 * Recall whose database work does not grow with the conversation (migration 0012):
 * the statement reads BM25's statistics from rows the triggers keep, and scores only the
 * messages listed for the query's terms, not every message that shares a word with it.
 */
import { describe, expect, it } from "vitest";
import { queryTerms, searchTerms, TERMS_VERSION } from "../../src/memory/recall/index.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { parseRecallRow } from "../../src/store/recall-prefetch.ts";
import { SELECT_RECALL, TRIM_TRANSCRIPT } from "../../src/store/sql.ts";
import { useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

/** The same template in every message, as a long conversation repeats its common words. */
const text = (seq: number) =>
  seq === 7
    ? "My grandmother's village is called Hallstatt, please keep that in mind"
    : `Turn ${seq}: something ordinary happened today, please keep that in mind`;

/** Appends messages [from, to) to a thread's transcript in one statement, indexed. */
async function append(agent: string, thread: string, from: number, to: number) {
  await backend.pg.query(
    `INSERT INTO llamon_messages (agent_id, thread_id, seq, message, search_terms, terms_version)
     SELECT $1, $2, s,
            jsonb_build_object('lc', 1, 'type', 'constructor',
              'id', jsonb_build_array('langchain_core', 'messages',
                    CASE WHEN s % 2 = 0 THEN 'HumanMessage' ELSE 'AIMessage' END),
              'kwargs', jsonb_build_object('content', t.texts[s - $3 + 1], 'id', 'm' || s)),
            t.terms[s - $3 + 1], $5
       FROM generate_series($3::bigint, $4::bigint - 1) AS s,
            (SELECT $6::text[] AS texts, $7::text[] AS terms) t`,
    [
      agent,
      thread,
      from,
      to,
      TERMS_VERSION,
      Array.from({ length: to - from }, (_, i) => text(from + i)),
      Array.from({ length: to - from }, (_, i) => searchTerms(text(from + i)).join(" ")),
    ],
  );
}

/** The statistics as they must be: counted again from the thread's messages. */
async function expectStatsMatch(agent: string, thread: string) {
  const counted = await backend.pg.query<{ term: string; df: string; newest: string[] }>(
    `SELECT d.term, count(*)::text AS df,
            (array_agg(d.seq::text ORDER BY d.seq DESC))[1:200] AS newest
       FROM (SELECT DISTINCT m.seq, w AS term FROM llamon_messages m,
                    unnest(string_to_array(m.search_terms, ' ')) AS w
              WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.search_terms IS NOT NULL) d
      GROUP BY d.term ORDER BY d.term`,
    [agent, thread],
  );
  const kept = await backend.pg.query<{ term: string; df: string; newest: string[] }>(
    `SELECT term, df::text AS df, recent::text[] AS newest FROM llamon_recall_terms
      WHERE agent_id = $1 AND thread_id = $2 ORDER BY term`,
    [agent, thread],
  );
  expect(kept.rows).toEqual(counted.rows);
  const docs = await backend.pg.query<{ docs: string; total: string }>(
    `SELECT count(*)::text AS docs, coalesce(sum(term_count), 0)::text AS total
       FROM llamon_messages WHERE agent_id = $1 AND thread_id = $2 AND search_terms IS NOT NULL`,
    [agent, thread],
  );
  const stats = await backend.pg.query<{ docs: string; total: string }>(
    `SELECT docs::text AS docs, total_terms::text AS total FROM llamon_recall_stats
      WHERE agent_id = $1 AND thread_id = $2`,
    [agent, thread],
  );
  const expected = docs.rows[0]?.docs === "0" ? [] : docs.rows;
  expect(stats.rows).toEqual(expected);
}

/** Buffers the recall statement touched (shared hits and reads), from its plan. */
async function buffersOf(agent: string, thread: string, question: string): Promise<number> {
  const { rows } = await backend.pg.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${SELECT_RECALL}`,
    [agent, thread, queryTerms(question), 5],
  );
  const explained = (rows[0]?.["QUERY PLAN"] ?? []) as { Plan: Record<string, number> }[];
  const plan = explained[0]?.Plan ?? {};
  return (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0);
}

async function recall(agent: string, thread: string, question: string) {
  const { rows } = await backend.pg.query<{ recall: unknown }>(SELECT_RECALL, [
    agent,
    thread,
    queryTerms(question),
    5,
  ]);
  return parseRecallRow(rows[0]?.recall);
}

describe("recall statistics kept by the database (migration 0012)", () => {
  it("R4.2 R4.3 follow every change of the transcript: append, partial trim, replacement, reindex, erase", async () => {
    await append("rb-s", "t", 0, 260);
    await append("rb-s", "t", 260, 300);
    await expectStatsMatch("rb-s", "t");
    // A trim that deletes the oldest rows (memory/trim.ts; store/sql.ts TRIM_TRANSCRIPT).
    await backend.pg.query(
      `INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id, head_checkpoint_id, message_count)
       VALUES ('rb-s', 't', 'rb-s:t', 'h', 300) ON CONFLICT DO NOTHING`,
    );
    await backend.pg.query(TRIM_TRANSCRIPT, ["rb-s", "t", 120, 0, 300]);
    await expectStatsMatch("rb-s", "t");
    // A position written again (APPEND_TRANSCRIPT's ON CONFLICT) and a reindex (an UPDATE of
    // the terms): the old terms go, the new ones come.
    await backend.pg.query(
      `UPDATE llamon_messages SET search_terms = $3 WHERE agent_id = $1 AND thread_id = $2 AND seq = 200`,
      ["rb-s", "t", searchTerms("a completely different sentence about violins").join(" ")],
    );
    await backend.pg.query(
      `UPDATE llamon_messages SET search_terms = NULL WHERE agent_id = $1 AND thread_id = $2 AND seq = 201`,
      ["rb-s", "t"],
    );
    await expectStatsMatch("rb-s", "t");
    const violins = (await recall("rb-s", "t", "violins")).candidates;
    expect(violins.filter((c) => (c.scores?.own ?? 0) > 0).map((c) => c.seq)).toEqual([200]);
    // Erase (NeonSaver.deleteThread): nothing of the thread is left in the statistics.
    await append("rb-s", "other", 0, 10);
    await new NeonSaver({ db: backend.neon, agentId: "rb-s" }).deleteThread("t");
    const left = await backend.pg.query(
      `SELECT 'terms' FROM llamon_recall_terms WHERE agent_id = 'rb-s' AND thread_id = 't'
       UNION ALL SELECT 'stats' FROM llamon_recall_stats WHERE agent_id = 'rb-s' AND thread_id = 't'`,
    );
    expect(left.rows).toEqual([]);
    await expectStatsMatch("rb-s", "other");
  });

  it("R3.1 the recall statement touches as many rows at 20,000 messages as at 2,000, and still finds the oldest rare word", async () => {
    await append("rb-b", "short", 0, 2_000);
    await append("rb-b", "long", 0, 20_000);
    const question = "what did I say about my grandmother's village? please keep that in mind";
    // Ten times the conversation, not ten times the work (a plan's buffers, not a timing):
    // right after the rows were written (no table statistics yet, as for a new deployment's
    // first conversations) and once the tables are analyzed.
    for (const when of ["before ANALYZE", "after ANALYZE"]) {
      if (when === "after ANALYZE") {
        await backend.pg.query("ANALYZE llamon_messages, llamon_recall_terms, llamon_recall_stats");
      }
      const short = await buffersOf("rb-b", "short", question);
      const long = await buffersOf("rb-b", "long", question);
      console.log(
        `recall statement buffers ${when}: ${short} at 2,000 messages, ${long} at 20,000`,
      );
      expect(long, when).toBeLessThanOrEqual(1.5 * short);
    }
    for (const thread of ["short", "long"]) {
      const found = await recall("rb-b", thread, question);
      // The message with the rare words, at position 7, scores best at either length.
      const best = [...found.candidates].sort(
        (a, b) => (b.scores?.own ?? 0) - (a.scores?.own ?? 0),
      )[0];
      expect(best?.seq, thread).toBe(7);
      expect(found.stats.docs).toBe(thread === "long" ? 20_000 : 2_000);
    }
  });
});
